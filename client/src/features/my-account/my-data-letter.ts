import type { AuditEvent } from '../../../../common/api/audit'
import type { MyData } from '../../../../common/api/my-data'
import { auditStatusNames } from '../../../../common/audit-details'
import { auditEventWords } from '../../../../common/audit-event-words'
import { escapeHtml } from '../../../../common/escape-html'
import type { ProviderLabels } from '../../../../common/provider-labels'
import { isSessionEndCode, type SessionEndCode } from '../../../../common/session-end'

/**
 * "Meus dados" as a letter a person reads: one HTML file, opened by any browser without the
 * panel or a network, in Portuguese, with names instead of codes and the reader's local times.
 * The JSON beside it (my-data-card.tsx) stays the copy for another program (LGPD art. 18, V);
 * this one is for art. 18, I and II: to see what is held. Everything the JSON holds is here,
 * in words.
 *
 * Built as a string, not with React, so the file needs no script: every value the person or an
 * admin could have typed goes through `escapeHtml` (common/escape-html.ts), and the file's own
 * policy forbids any script should one ever slip through.
 */

export interface LetterOptions {
  /** The providers' labels ("Entrar com Google" → Google), as on the Auditoria screen. */
  labels: ProviderLabels
  /** IANA zone the times are written in: the reader's browser's. */
  timeZone: string
}

const text = {
  title: 'Seus dados no Painel',
  greeting: (name: string) => `Olá, ${name}.`,
  lead: (moment: string, zone: string) =>
    `Esta é a cópia de tudo o que o Painel guarda sobre você, feita em ${moment}. Os horários estão no fuso ${zone}. Senhas, códigos e chaves secretas não estão aqui: só que existem, e as datas. O arquivo JSON de "Meus dados" traz os mesmos dados para outro programa.`,
  none: 'Nenhum registro.',
  you: 'Quem você é',
  name: 'Nome',
  email: 'E-mail',
  role: 'Papel',
  team: 'Time',
  noTeam: 'Nenhum',
  status: 'Situação da conta',
  createdAt: 'Conta criada em',
  updatedAt: 'Última alteração',
  invitationUntil: 'Convite válido até',
  newBrowserNotice: 'Aviso de entrada por um navegador novo',
  on: 'Ligado',
  off: 'Desligado',
  sessions: 'Sessões',
  sessionsIntro: 'Cada vez que você entrou no Painel, de qual navegador e endereço.',
  unknownBrowser: 'Navegador desconhecido',
  sessionStarted: (at: string) => `Começou em ${at}`,
  sessionLastSeen: (at: string) => `último uso em ${at}`,
  address: (ip: string) => `endereço ${ip}`,
  sessionOpen: (until: string) => `Aberta; termina no máximo em ${until}.`,
  sessionEnded: (at: string, why: string) => `Encerrada em ${at}${why ? `: ${why}` : ''}.`,
  sessionExpired: (at: string) => `Terminou em ${at}.`,
  browsers: 'Navegadores lembrados',
  browsersIntro:
    'Navegadores em que você já entrou: o Painel os reconhece para não avisar de novo. Só a data até quando são lembrados fica guardada, não qual navegador é.',
  browserUntil: (at: string) => `Um navegador lembrado até ${at}`,
  secondFactor: 'Segundo fator',
  totpOn: (since: string | null) =>
    since ? `Aplicativo autenticador ativo desde ${since}.` : 'Aplicativo autenticador ativo.',
  totpOff: 'Nenhum aplicativo autenticador.',
  codesLeft: (n: number) =>
    n === 1 ? 'Resta 1 código de recuperação.' : `Restam ${n} códigos de recuperação.`,
  passkeys: 'Chaves de acesso',
  passkeyLine: (created: string, used: string | null) =>
    `Adicionada em ${created}; ${used ? `último uso em ${used}` : 'nunca usada'}.`,
  providers: 'Provedores de identidade',
  providerLine: (subject: string, linked: string, used: string | null) =>
    `Você é “${subject}” lá. Vinculado em ${linked}; ${used ? `última entrada em ${used}` : 'nunca usado para entrar'}.`,
  linkInvitations: 'Links para vincular um provedor',
  linkInvitationLine: (sent: string, until: string) => `Enviado em ${sent}, vale até ${until}.`,
  emailChanges: 'Mudanças de e-mail',
  emailChangeLine: (asked: string, outcome: string) => `Pedida em ${asked}; ${outcome}.`,
  signInLimits: 'Tentativas erradas de entrar',
  signInLimitLine: (failures: number, until: string, blockedUntil: string | null) =>
    `${failures === 0 ? 'Nenhuma tentativa errada' : failures === 1 ? '1 tentativa errada' : `${failures} tentativas erradas`}, contadas até ${until}${blockedUntil ? `; entrada bloqueada até ${blockedUntil}` : ''}.`,
  mails: 'E-mails que o Painel enviou a você',
  mailsIntro: 'O assunto, o endereço e quando; o texto dos e-mails não fica guardado.',
  mailLine: (to: string, at: string, state: string) => `Para ${to}, em ${at}: ${state}.`,
  events: 'Registro de atividade',
  eventsIntro:
    'O que você fez no Painel, o que foi feito na sua conta e as tentativas de entrar com o seu e-mail, do mais novo ao mais antigo.',
  by: (who: string) => `por ${who}`,
}

const SESSION_END_WORDS: Record<SessionEndCode, string> = {
  session_expired: 'chegou ao tempo máximo',
  session_idle: 'ficou sem uso',
  session_revoked: 'encerrada em “Minha conta” ou por um administrador',
  session_account_disabled: 'a conta foi desativada',
  session_password_changed: 'a senha foi trocada',
}

/** Why a session ended, in words; none for a reason this page does not know. */
const sessionEndWords = (reason: string | null) =>
  reason !== null && isSessionEndCode(reason) ? SESSION_END_WORDS[reason] : ''

const OUTCOME_WORDS: Record<string, string> = {
  confirmed: 'confirmada',
  cancelled: 'cancelada',
  replaced: 'substituída por um pedido mais novo',
}

const MAIL_STATE_WORDS: Record<string, string> = {
  waiting: 'na fila para envio',
  sent: 'enviado',
  failed: 'não foi possível enviar',
}

/**
 * A mail the sender composes when it sends it has no subject until then (server/mail/outbox.ts):
 * named by what it is.
 */
const MAIL_KIND_WORDS: Record<string, string> = {
  security_notice: 'Aviso de segurança',
  password_recovery: 'Link para criar uma nova senha',
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #57606a; --bg: #fff; --line: #d0d7de; --card: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --line: #30363d; --card: #161b22; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.75rem; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 0 0 .25rem; }
p { margin: 0 0 .5rem; }
.muted { color: var(--muted); }
dl { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
ol { list-style: none; margin: 0; padding: 0; }
li { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
li p:last-child { margin-bottom: 0; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: .5rem; } }
@media print { li { break-inside: avoid; } }
`

/** A section: its heading, a line on what it is, and its items (or "Nenhum registro."). */
function section(title: string, items: string[], intro?: string): string {
  const body = items.length
    ? `<ol>${items.map((item) => `<li>${item}</li>`).join('')}</ol>`
    : `<p class="muted">${escapeHtml(text.none)}</p>`
  return `<section><h2>${escapeHtml(title)}</h2>${intro ? `<p class="muted">${escapeHtml(intro)}</p>` : ''}${body}</section>`
}

const item = (heading: string, ...lines: string[]) =>
  `<h3>${escapeHtml(heading)}</h3>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`

/** The zone by its IANA name and as a person says it: "America/Sao_Paulo (Horário Padrão de Brasília)". */
function zoneName(timeZone: string, at: Date): string {
  const said = new Intl.DateTimeFormat('pt-BR', { timeZone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((each) => each.type === 'timeZoneName')?.value
  return said && said !== timeZone ? `${timeZone} (${said})` : timeZone
}

export function myDataLetter(data: MyData, { labels, timeZone }: LetterOptions): string {
  const moments = new Intl.DateTimeFormat('pt-BR', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  })
  const at = (iso: string) => moments.format(new Date(iso))
  const atOrNull = (iso: string | null) => (iso === null ? null : at(iso))
  const generated = new Date(data.generatedAt)
  const { account } = data

  const facts: [string, string][] = [
    [text.name, account.name || '—'],
    [text.email, account.email],
    [text.role, account.roleName ?? account.role],
    [text.team, account.teamName ?? text.noTeam],
    [text.status, auditStatusNames[account.status] ?? account.status],
    [text.createdAt, at(account.createdAt)],
    [text.updatedAt, at(account.updatedAt)],
    ...(account.invitationExpiresAt
      ? [[text.invitationUntil, at(account.invitationExpiresAt)] as [string, string]]
      : []),
    [text.newBrowserNotice, account.newBrowserNotice ? text.on : text.off],
  ]
  const you = `<section><h2>${escapeHtml(text.you)}</h2><dl>${facts
    .map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('')}</dl></section>`

  const sessions = data.sessions.map((session) => {
    const started = [
      text.sessionStarted(at(session.createdAt)),
      text.sessionLastSeen(at(session.lastSeenAt)),
      ...(session.ip ? [text.address(session.ip)] : []),
    ].join(' · ')
    const end = session.endedAt
      ? text.sessionEnded(at(session.endedAt), sessionEndWords(session.endReason))
      : new Date(session.expiresAt) <= generated
        ? text.sessionExpired(at(session.expiresAt))
        : text.sessionOpen(at(session.expiresAt))
    return item(session.browser || text.unknownBrowser, started, end)
  })

  const browsers = data.browsers.map((browser) => item(text.browserUntil(at(browser.trustedUntil))))

  const factor = data.secondFactor
  const secondFactor = `<section><h2>${escapeHtml(text.secondFactor)}</h2><p>${escapeHtml(
    factor.totp ? text.totpOn(atOrNull(factor.totpSince)) : text.totpOff,
  )}</p><p>${escapeHtml(text.codesLeft(factor.recoveryCodesLeft))}</p></section>`

  const passkeys = data.passkeys.map((passkey) =>
    item(passkey.name, text.passkeyLine(at(passkey.createdAt), atOrNull(passkey.lastUsedAt))),
  )
  const providers = data.providers.map((link) =>
    item(
      labels(link.provider),
      text.providerLine(link.subject, at(link.linkedAt), atOrNull(link.lastUsedAt)),
    ),
  )
  const linkInvitations = data.providerLinkInvitations.map((invitation) =>
    item(
      labels(invitation.provider),
      text.linkInvitationLine(at(invitation.sentAt), at(invitation.expiresAt)),
    ),
  )
  const emailChanges = data.emailChanges.map((change) => {
    const outcome =
      (change.outcome && OUTCOME_WORDS[change.outcome]) ||
      (change.endedAt || new Date(change.expiresAt) <= generated
        ? `o link venceu em ${at(change.expiresAt)}`
        : `esperando a confirmação até ${at(change.expiresAt)}`)
    return item(change.newEmail, text.emailChangeLine(at(change.createdAt), outcome))
  })
  const limits = data.signInLimits.map((limit) =>
    item(
      text.signInLimitLine(
        limit.failures,
        at(limit.windowEndsAt),
        new Date(limit.blockedUntil) > generated ? at(limit.blockedUntil) : null,
      ),
    ),
  )
  const mails = data.mails.map((mail) =>
    item(
      mail.subject ?? MAIL_KIND_WORDS[mail.kind] ?? 'E-mail do Painel',
      text.mailLine(
        mail.to,
        at(mail.finishedAt ?? mail.createdAt),
        MAIL_STATE_WORDS[mail.state] ?? mail.state,
      ),
    ),
  )
  const events = data.auditEvents.map((event: AuditEvent) => {
    const words = auditEventWords(event, labels)
    const where = [event.ip, words.browser].filter(Boolean).join(' · ')
    return item(
      words.what,
      `${at(event.at)}, ${text.by(words.who)}${words.details ? ` — ${words.details}` : ''}`,
      ...(where ? [where] : []),
    )
  })

  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${text.title} — ${account.name || account.email}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.greeting(account.name || account.email))}</p>
<p class="muted">${escapeHtml(text.lead(at(data.generatedAt), zoneName(timeZone, generated)))}</p>
${you}
${section(text.sessions, sessions, text.sessionsIntro)}
${section(text.browsers, browsers, text.browsersIntro)}
${secondFactor}
${section(text.passkeys, passkeys)}
${section(text.providers, providers)}
${data.providerLinkInvitations.length ? section(text.linkInvitations, linkInvitations) : ''}
${section(text.emailChanges, emailChanges)}
${section(text.signInLimits, limits)}
${section(text.mails, mails, text.mailsIntro)}
${section(text.events, events, text.eventsIntro)}
</main>
</body>
</html>
`
}
