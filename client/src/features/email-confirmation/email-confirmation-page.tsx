import { CButton } from '@coreui/react'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import type { EmailChangeAnswer, EmailLinkBody } from '../../../../common/api/email-change'
import { apiRequest, errorMessage } from '../../session/api-client'
import { paths } from '../../routing/paths'
import { useSessionToken } from '../../session/use-session-token'
import { useDocumentTitle } from '../../routing/use-document-title'
import { Notice } from '../../ui/notice'
import { PublicCard } from '../../ui/public-card'
import { wholeWords } from '../../ui/whole-words'

const words = {
  confirm: {
    title: 'Confirmar novo e-mail',
    intro:
      'Confirme que este endereço passa a ser o e-mail da sua conta no Painel. Depois disso, é com ele que você entra.',
    button: 'Confirmar novo e-mail',
    done: (email: string) => `Pronto: o e-mail da sua conta agora é ${email}.`,
  },
  cancel: {
    title: 'Cancelar troca de e-mail',
    intro:
      'Cancele o pedido de troca do e-mail da sua conta no Painel. O e-mail atual continua valendo, e o link enviado ao outro endereço deixa de funcionar.',
    button: 'Cancelar a troca',
    done: () =>
      'A troca de e-mail foi cancelada. Se você não pediu essa troca, crie uma nova senha em "Esqueci minha senha" e avise quem administra o Painel.',
  },
  missing: 'Este link está incompleto. Abra o link do e-mail de novo, inteiro.',
  goToLogin: 'Ir para o login',
  goToDashboard: 'Ir para o Início',
}

const sendEmailLink = (action: 'confirm' | 'cancel', body: EmailLinkBody) =>
  action === 'confirm'
    ? apiRequest<EmailChangeAnswer>('auth/email/confirm', { method: 'POST', body })
    : apiRequest<void>('auth/email/cancel', { method: 'POST', body }).then(() => null)

/**
 * `/confirmar-email?token=…` or `?cancelar=…`: one button sends the link's token. Not sent on
 * opening: a mail program that opens links to check them must not confirm or cancel anything.
 * Another link opened in the same tab changes only the hash: keyed by it, the page starts over.
 */
export default function EmailConfirmationPage() {
  const [params] = useSearchParams()
  const cancelToken = params.get('cancelar')
  const action = cancelToken !== null ? 'cancel' : 'confirm'
  const token = cancelToken ?? params.get('token')
  return <EmailLink key={`${action}:${token ?? ''}`} action={action} token={token} />
}

function EmailLink({ action, token }: { action: 'confirm' | 'cancel'; token: string | null }) {
  const text = words[action]
  useDocumentTitle(text.title)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(token ? null : words.missing)
  // A way on in every state: the login page, or Início for whoever is signed in here.
  const signedIn = useSessionToken() !== null
  const onward = signedIn
    ? { to: paths.dashboard, label: words.goToDashboard }
    : { to: paths.login, label: words.goToLogin }

  const send = async () => {
    if (!token) return
    setBusy(true)
    setError(null)
    try {
      const answer = await sendEmailLink(action, { token })
      setDone(text.done(answer?.email ?? ''))
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <PublicCard title={text.title}>
      {done ? (
        <>
          <Notice color="success" text={done} />
          <Link to={onward.to} className="btn btn-primary">
            {onward.label}
          </Link>
        </>
      ) : (
        <>
          <p className="text-body-secondary">{wholeWords(text.intro)}</p>
          <Notice text={error} />
          {token && (
            <CButton color="primary" disabled={busy} onClick={() => void send()}>
              {text.button}
            </CButton>
          )}
          <p className={token ? 'mt-3 mb-0' : 'mb-0'}>
            <Link to={onward.to}>{onward.label}</Link>
          </p>
        </>
      )}
    </PublicCard>
  )
}
