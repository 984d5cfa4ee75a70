import assert from 'node:assert/strict'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import type { MfaRequired } from '../../common/api/auth'
import type { RecoveryCodes, SessionList, TotpSetup } from '../../common/api/me'
import type { RoleAnswer, TeamAnswer } from '../../common/api/roles'
import type { CreationOptions, RequestOptions } from '../../common/api/webauthn'
import { totpCode } from '../accounts/totp'
import type { OpenApiDocument } from '../openapi/api-description'
import { ADMIN, apiFixture, bearer, PUBLIC_URL, type ApiFixture } from '../test/api-fixture'
import {
  DatabaseHandOffStore,
  HandOffCodes,
} from '../features/sign-in-with-provider/hand-off-codes'
import { addLink } from '../features/sign-in-with-provider/provider-links'
import {
  PENDING_LINK_COOKIE,
  putPendingLink,
} from '../features/sign-in-with-provider/pending-links'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
} from '../test/oidc-test-provider'
import { canMountDisk, fillDisk, mountSmallDisk, type SmallDisk } from '../test/small-disk'
import { SoftwareAuthenticator } from '../test/software-authenticator'
import { TestClock } from '../test/test-clock'
import { openDatabase } from './database'

/**
 * Every write of the API on a disk that fills up while the server runs (a small tmpfs holding
 * the SQLite file): a 503 `service_unavailable` in the usual shape, never a 500, and once there
 * is room again the same requests work and nothing written before is missing. SQLite rolls a
 * transaction back by itself on SQLITE_FULL, so the rollback that follows must not turn the
 * storage error into another one. Each route gets a request that reaches its write (real ids,
 * accounts in the state it acts on); the routes are read from the API document, so a new write
 * route without a request here fails this test. The embedded store only (a file on a small
 * disk); needs root, for the mount.
 */

const clock = new TestClock()
let disk: SmallDisk | undefined
/** The disk's folder, where the SQLite file is. */
let dataDir: string
let api: ApiFixture
let adminToken: string
/** The provider an admin's link is for: its start reads the provider's discovery. */
let op: OidcTestProvider | undefined
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => void unhandled.push(reason)

before(async () => {
  if (!canMountDisk) return
  process.on('unhandledRejection', onUnhandled)
  disk = await mountSmallDisk('full', '8m')
  dataDir = disk.folder
  const database = await openDatabase({ sqliteFile: join(dataDir, 'painel.db') })
  const corp = registeredProvider('corp', PUBLIC_URL)
  op = await startOidcTestProvider({ clients: [corp.client] })
  api = await apiFixture({
    database,
    authRateLimit: 1_000_000,
    clock: clock.now,
    authProviders: [corp.settings(op.issuer)],
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(async () => {
  process.off('unhandledRejection', onUnhandled)
  await api?.close()
  await op?.stop()
  await disk?.release()
})

/**
 * Fills the disk (server/test/small-disk.ts) with no room left at all: the log (WAL) is folded
 * into the database file and emptied first, as a write that failed leaves its frames' room in
 * the log, where a smaller one would fit, and every request here must meet a full disk.
 */
async function fillDiskAfterCheckpoint(folder: string): Promise<string> {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(api.database.db)
  return fillDisk(folder)
}

type Send = () => Promise<LightMyRequestResponse>

/** A request that reaches the route's write; `during` when a full disk gives not 503 (why). */
interface Prepared {
  send: Send
  during?: { status: number; why: string }
}

const call = (
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token?: string,
  payload?: () => object,
): Send => {
  return () =>
    api.app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload ? { payload: payload() } : {}),
    })
}

/** A POST from the browser that holds a pending link's cookie. */
const withCookie =
  (cookie: string, url: string, payload: object): Send =>
  () =>
    api.app.inject({ method: 'POST', url, headers: { cookie }, payload })

/** A pending link of a provider's identity to the account, as the callback leaves it. */
async function pendingLinkCookie(accountId: string): Promise<string> {
  const link = { provider: 'corp', issuer: 'https://sso.example.com', subject: accountId }
  const token = await putPendingLink(api.database.db, { accountId, ...link }, clock.now())
  return `${PENDING_LINK_COOKIE}=${token}`
}

const ok = (response: LightMyRequestResponse, what: string) =>
  assert.ok(response.statusCode < 300, `${what}: ${response.statusCode} ${response.body}`)

/** A change of e-mail asked for: its confirm and cancel links' tokens, from the two mails. */
async function emailChangeLinks(label: string) {
  const someone = await api.person(label)
  const newEmail = `nova-${someone.email}`
  ok(
    await api.call('POST', '/api/me/email', someone.token, {
      email: newEmail,
      password: someone.password,
    }),
    'change asked',
  )
  await api.deliverMail()
  const link = (to: string, subject: string, key: string) =>
    new RegExp(`${key}=([A-Za-z0-9_-]{43})`).exec(
      api.mail.sentWith(to, subject).at(-1)?.text ?? '',
    )?.[1]
  const token = link(newEmail, 'Painel: confirme o seu novo e-mail', 'token')
  const cancel = link(someone.email, 'Painel: pedido de troca do seu e-mail', 'cancelar')
  assert.ok(token && cancel, 'both links mailed')
  return { token, cancel }
}
/** A role or a team the admin makes (a unique name each): its id. */
async function made(kind: 'roles' | 'teams'): Promise<string> {
  made.count += 1
  const name = `Feito ${made.count}`
  const body =
    kind === 'roles'
      ? { name, description: '', permissions: ['staff.unlock'], scope: 'all' }
      : { name }
  const answer = await api.call('POST', `/api/${kind}`, adminToken, body)
  ok(answer, `${kind} made`)
  return kind === 'roles' ? answer.json<RoleAnswer>().role.id : answer.json<TeamAnswer>().team.id
}
made.count = 0

/** A signed-in person with TOTP on: the setup's session, the secret. */
async function withTotp() {
  const someone = await api.person('totp')
  const { secret } = (await api.call('POST', '/api/me/totp', someone.token)).json<TotpSetup>()
  const confirm = await api.call('POST', '/api/me/totp/confirm', someone.token, {
    code: totpCode(secret, clock.now()),
  })
  ok(confirm, 'TOTP confirmed')
  assert.equal(confirm.json<RecoveryCodes>().recoveryCodes.length, 10)
  return { ...someone, secret }
}

/** A signed-in person with a passkey: its id, and the authenticator that holds it. */
async function withPasskey() {
  const someone = await api.person('chave')
  const options = await api.call('POST', '/api/me/passkeys/options', someone.token, {})
  const authenticator = new SoftwareAuthenticator(PUBLIC_URL)
  const added = await api.call('POST', '/api/me/passkeys', someone.token, {
    response: authenticator.register(options.json<CreationOptions>()),
    name: 'Notebook',
  })
  ok(added, 'passkey added')
  return {
    ...someone,
    authenticator,
    passkeyId: added.json<{ passkey: { id: string } }>().passkey.id,
  }
}

/** An admin's mailed link to connect the provider to a new account: its token. */
async function linkInvitationToken(label: string): Promise<string> {
  const someone = await api.account(label)
  const sent = await call(
    'POST',
    `/api/staff/${someone.id}/provider-link-invitations`,
    adminToken,
    () => ({
      provider: 'corp',
    }),
  )()
  ok(sent, 'the link sent')
  const text = (await api.mail.next(someone.email)).text
  const token = new RegExp(`${PUBLIC_URL}/#/vincular\\?token=([A-Za-z0-9_-]{43})`).exec(text)?.[1]
  assert.ok(token, text)
  return token
}

const RESET_LINK = /\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})/

/** Every write operation of the API, as `METHOD /path`, and how to make a request that writes. */
const WRITES: Record<string, () => Promise<Prepared[]>> = {
  'POST /api/auth/login': async () => {
    const someone = await api.account('entra')
    const { email, password } = someone
    return [{ send: call('POST', '/api/auth/login', undefined, () => ({ email, password })) }]
  },
  'POST /api/auth/login/mfa': async () => {
    const someone = await withTotp()
    const { challenge } = (
      await api.post('/api/auth/login', { email: someone.email, password: someone.password })
    ).json<MfaRequired>().mfa
    // The code of the step after the one that confirmed (a code is good once).
    const code = () => ({
      challenge,
      code: totpCode(someone.secret, new Date(clock.now().getTime() + 30_000)),
    })
    return [{ send: call('POST', '/api/auth/login/mfa', undefined, code) }]
  },
  'POST /api/auth/passkey/options': async () => [
    { send: call('POST', '/api/auth/passkey/options', undefined, () => ({})) },
  ],
  'POST /api/auth/passkey': async () => {
    const { authenticator } = await withPasskey()
    const options = (await api.post('/api/auth/passkey/options', {})).json<RequestOptions>()
    const response = authenticator.authenticate(options)
    return [{ send: call('POST', '/api/auth/passkey', undefined, () => ({ response })) }]
  },
  'POST /api/auth/logout': async () => [
    { send: call('POST', '/api/auth/logout', (await api.person('sai')).token) },
  ],
  'POST /api/auth/register': async () => [
    {
      send: call('POST', '/api/auth/register', undefined, () => ({
        name: 'Nova Pessoa',
        email: 'nova-pessoa@example.com',
        password: 'uma senha bem longa 1',
      })),
    },
  ],
  'POST /api/auth/password-recovery': async () => {
    const someone = await api.account('esqueceu')
    return [
      {
        // The request queues its mail in the outbox (the same write whether or not the
        // address has an account), so a full disk refuses it like any other write.
        send: call('POST', '/api/auth/password-recovery', undefined, () => ({
          email: someone.email,
        })),
      },
    ]
  },
  'POST /api/auth/password-reset': async () => {
    const someone = await api.account('redefine')
    ok(await api.post('/api/auth/password-recovery', { email: someone.email }), 'recovery asked')
    const token = RESET_LINK.exec((await api.mail.next(someone.email)).text)?.[1]
    assert.ok(token)
    return [
      {
        send: call('POST', '/api/auth/password-reset', undefined, () => ({
          token,
          password: 'outra senha bem longa 2',
        })),
      },
    ]
  },
  'POST /api/auth/password-reset/check': async () => {
    const someone = await api.account('confere')
    ok(await api.post('/api/auth/password-recovery', { email: someone.email }), 'recovery asked')
    const token = RESET_LINK.exec((await api.mail.next(someone.email)).text)?.[1]
    return [
      {
        send: call('POST', '/api/auth/password-reset/check', undefined, () => ({ token })),
        during: { status: 200, why: 'reads only: it tells whether a link is usable, and whose' },
      },
    ]
  },
  'POST /api/auth/oidc/exchange': async () => {
    // The hand-off a provider's callback leaves for the login page (hand-off-codes.ts).
    const someone = await api.account('provedor')
    const code = await new HandOffCodes(new DatabaseHandOffStore(api.database.db), clock.now).issue(
      {
        accountId: someone.id,
        provider: 'corp',
        redirectTarget: null,
        providerMultiFactor: false,
      },
    )
    return [{ send: call('POST', '/api/auth/oidc/exchange', undefined, () => ({ code })) }]
  },
  'POST /api/auth/oidc/link': async () => {
    // A provider's identity waiting for the account's password (link-by-password.ts).
    const someone = await api.account('vincula')
    const cookie = await pendingLinkCookie(someone.id)
    return [
      {
        send: withCookie(cookie, '/api/auth/oidc/link', {
          email: someone.email,
          password: someone.password,
        }),
      },
    ]
  },
  'POST /api/auth/oidc/link/mfa': async () => {
    const someone = await withTotp()
    const cookie = await pendingLinkCookie(someone.id)
    const step = await withCookie(cookie, '/api/auth/oidc/link', {
      email: someone.email,
      password: someone.password,
    })()
    ok(step, 'the link’s password step')
    const { challenge } = step.json<MfaRequired>().mfa
    return [
      {
        send: withCookie(cookie, '/api/auth/oidc/link/mfa', {
          challenge,
          code: totpCode(someone.secret, new Date(clock.now().getTime() + 30_000)),
        }),
      },
    ]
  },
  'DELETE /api/me/providers/{id}': async () => {
    const someone = await api.person('desvincula')
    const key = { provider: 'corp', issuer: 'https://sso.example.com', subject: someone.id }
    assert.ok(await addLink(api.database.db, key, someone.id, clock.now()))
    const link = await api.database.db
      .selectFrom('provider_links')
      .select('id')
      .where('account_id', '=', someone.id)
      .executeTakeFirstOrThrow()
    return [{ send: call('DELETE', `/api/me/providers/${link.id}`, someone.token) }]
  },
  'POST /api/auth/password-strength': async () => [
    {
      send: call('POST', '/api/auth/password-strength', undefined, () => ({
        password: 'uma senha qualquer 3',
      })),
      during: { status: 200, why: 'writes nothing: an estimate in a thread of its own' },
    },
  ],
  'POST /api/auth/password': async () => {
    const someone = await api.person('troca')
    return [
      {
        send: call('POST', '/api/auth/password', someone.token, () => ({
          currentPassword: someone.password,
          newPassword: 'nova senha bem longa 3',
        })),
      },
    ]
  },
  'POST /api/me/session/renew': async () => {
    const renew = call('POST', '/api/me/session/renew', (await api.person('renova')).token)
    // A second on: renewing at the very instant of the sign-in would change nothing.
    return [{ send: () => (clock.advance(1000), renew()) }]
  },
  'DELETE /api/me/sessions': async () => {
    const someone = await api.person('outras')
    await api.signIn(someone.email, someone.password)
    return [{ send: call('DELETE', '/api/me/sessions', someone.token) }]
  },
  'DELETE /api/me/sessions/{id}': async () => {
    const someone = await api.person('uma')
    await api.signIn(someone.email, someone.password)
    const { sessions } = (await api.get('/api/me/sessions', someone.token)).json<SessionList>()
    const other = sessions.find((session) => !session.current)
    assert.ok(other)
    return [{ send: call('DELETE', `/api/me/sessions/${other.id}`, someone.token) }]
  },
  'POST /api/me/totp': async () => [
    { send: call('POST', '/api/me/totp', (await api.person('comeca')).token) },
  ],
  'DELETE /api/me/totp': async () => {
    const someone = await withTotp()
    return [
      {
        send: call('DELETE', '/api/me/totp', someone.token, () => ({
          password: someone.password,
        })),
      },
    ]
  },
  'POST /api/me/totp/confirm': async () => {
    const someone = await api.person('confirma')
    const { secret } = (await api.call('POST', '/api/me/totp', someone.token)).json<TotpSetup>()
    return [
      {
        send: call('POST', '/api/me/totp/confirm', someone.token, () => ({
          code: totpCode(secret, clock.now()),
        })),
      },
    ]
  },
  'POST /api/me/recovery-codes': async () => {
    const someone = await withTotp()
    return [
      {
        send: call('POST', '/api/me/recovery-codes', someone.token, () => ({
          password: someone.password,
        })),
      },
    ]
  },
  'POST /api/me/passkeys/options': async () => [
    { send: call('POST', '/api/me/passkeys/options', (await api.person('opcoes')).token) },
  ],
  'POST /api/me/passkeys': async () => {
    const someone = await api.person('nova-chave')
    const options = await api.call('POST', '/api/me/passkeys/options', someone.token, {})
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(options.json<CreationOptions>())
    return [
      {
        send: call('POST', '/api/me/passkeys', someone.token, () => ({
          response,
          name: 'Celular',
        })),
      },
    ]
  },
  'PATCH /api/me/passkeys/{id}': async () => {
    const { token, passkeyId } = await withPasskey()
    return [
      {
        send: call('PATCH', `/api/me/passkeys/${passkeyId}`, token, () => ({ name: 'Outro' })),
      },
    ]
  },
  'DELETE /api/me/passkeys/{id}': async () => {
    const { token, passkeyId } = await withPasskey()
    return [{ send: call('DELETE', `/api/me/passkeys/${passkeyId}`, token) }]
  },
  'POST /api/staff/invitations': async () => [
    {
      send: call('POST', '/api/staff/invitations', adminToken, () => ({
        name: 'Convidada',
        email: 'convidada@example.com',
        role: 'staff',
      })),
    },
  ],
  'PATCH /api/staff/{id}': async () => {
    const pending = await api.account('aprova', { status: 'pending' })
    const promoted = await api.account('promove')
    const placed = await api.account('recolocada')
    const [role, team] = [await made('roles'), await made('teams')]
    return [
      {
        send: call('PATCH', `/api/staff/${pending.id}`, adminToken, () => ({
          status: 'active',
        })),
      },
      {
        send: call('PATCH', `/api/staff/${promoted.id}`, adminToken, () => ({ role: 'admin' })),
      },
      {
        send: call('PATCH', `/api/staff/${promoted.id}`, adminToken, () => ({
          name: 'Nome Corrigido',
        })),
      },
      {
        send: call('PATCH', `/api/staff/${placed.id}`, adminToken, () => ({
          roleId: role,
          teamId: team,
        })),
      },
    ]
  },
  'POST /api/roles': async () => [
    {
      send: call('POST', '/api/roles', adminToken, () => ({
        name: 'Suporte',
        description: 'Atende a central',
        permissions: ['staff.unlock', 'staff.reset'],
        scope: 'all',
      })),
    },
  ],
  'PATCH /api/roles/{id}': async () => {
    const id = await made('roles')
    return [
      {
        send: call('PATCH', `/api/roles/${id}`, adminToken, () => ({
          permissions: ['staff.sessions'],
        })),
      },
    ]
  },
  'DELETE /api/roles/{id}': async () => {
    const id = await made('roles')
    return [{ send: call('DELETE', `/api/roles/${id}`, adminToken) }]
  },
  'POST /api/teams': async () => [
    { send: call('POST', '/api/teams', adminToken, () => ({ name: 'Vendas', open: true })) },
  ],
  'PATCH /api/teams/{id}': async () => {
    const id = await made('teams')
    return [{ send: call('PATCH', `/api/teams/${id}`, adminToken, () => ({ open: true })) }]
  },
  'DELETE /api/teams/{id}': async () => {
    const id = await made('teams')
    // With a member: the delete also leaves them with no team.
    const member = await api.account('sem-time')
    ok(await api.call('PATCH', `/api/staff/${member.id}`, adminToken, { teamId: id }), 'placed')
    return [{ send: call('DELETE', `/api/teams/${id}`, adminToken) }]
  },
  'POST /api/scim-tokens': async () => [
    { send: call('POST', '/api/scim-tokens', adminToken, () => ({ name: 'Entra ID' })) },
  ],
  'DELETE /api/scim-tokens/{id}': async () => {
    const made = await api.call('POST', '/api/scim-tokens', adminToken, { name: 'Okta' })
    ok(made, 'token made')
    const { id } = made.json<{ id: string }>()
    return [{ send: call('DELETE', `/api/scim-tokens/${id}`, adminToken) }]
  },
  'POST /api/staff/bulk': async () => {
    const pending = await api.account('em-lote', { status: 'pending' })
    return [
      {
        send: call('POST', '/api/staff/bulk', adminToken, () => ({
          action: 'approve',
          ids: [pending.id],
        })),
      },
    ]
  },
  'POST /api/staff/{id}/invitation': async () => {
    const invited = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: 'Convite Antigo',
      email: 'convite-antigo@example.com',
      role: 'staff',
    })
    ok(invited, 'invited')
    const { user } = invited.json<{ user: { id: string } }>()
    return [{ send: call('POST', `/api/staff/${user.id}/invitation`, adminToken) }]
  },
  'PATCH /api/me/notices': async () => {
    const someone = await api.person('avisos')
    return [
      { send: call('PATCH', '/api/me/notices', someone.token, () => ({ newBrowser: false })) },
    ]
  },
  'POST /api/me/email': async () => {
    const someone = await api.person('troca')
    return [
      {
        send: call('POST', '/api/me/email', someone.token, () => ({
          email: `nova-${someone.email}`,
          password: someone.password,
        })),
      },
    ]
  },
  'POST /api/auth/email/confirm': async () => {
    const { token } = await emailChangeLinks('confirma')
    return [{ send: call('POST', '/api/auth/email/confirm', undefined, () => ({ token })) }]
  },
  'POST /api/auth/email/cancel': async () => {
    const { cancel } = await emailChangeLinks('cancela')
    return [{ send: call('POST', '/api/auth/email/cancel', undefined, () => ({ token: cancel })) }]
  },
  'POST /api/staff/{id}/provider-link-invitations': async () => {
    const someone = await api.account('convida-provedor')
    return [
      {
        send: call(
          'POST',
          `/api/staff/${someone.id}/provider-link-invitations`,
          adminToken,
          () => ({
            provider: 'corp',
          }),
        ),
      },
    ]
  },
  'POST /api/auth/oidc/link-invitation': async () => {
    const token = await linkInvitationToken('le-convite')
    return [
      {
        send: call('POST', '/api/auth/oidc/link-invitation', undefined, () => ({ token })),
        during: {
          status: 200,
          why: 'reads only: whose account the link is for, and which provider',
        },
      },
    ]
  },
  'POST /api/auth/oidc/link-invitation/start': async () => {
    const token = await linkInvitationToken('inicia-convite')
    return [
      {
        send: call('POST', '/api/auth/oidc/link-invitation/start', undefined, () => ({ token })),
        during: {
          status: 200,
          why: 'writes nothing: the link is sealed into the pending sign-in’s cookie',
        },
      },
    ]
  },
  'POST /api/staff/{id}/email': async () => {
    const someone = await api.account('troca-admin')
    return [
      {
        send: call('POST', `/api/staff/${someone.id}/email`, adminToken, () => ({
          email: `nova-${someone.email}`,
        })),
      },
    ]
  },
  'POST /api/me/deletion-request': async () => {
    const someone = await api.person('exclui')
    return [
      {
        send: call('POST', '/api/me/deletion-request', someone.token, () => ({
          password: someone.password,
        })),
      },
    ]
  },
  'POST /api/staff/{id}/deletion-request/refuse': async () => {
    const someone = await api.person('recusa-exclusao')
    await api.call('POST', '/api/me/deletion-request', someone.token, {
      password: someone.password,
    })
    return [
      {
        send: call('POST', `/api/staff/${someone.id}/deletion-request/refuse`, adminToken, () => ({
          reason: 'Há um processo em andamento',
        })),
      },
    ]
  },
  'POST /api/staff/{id}/anonymise': async () => {
    const someone = await api.account('anonimiza')
    return [{ send: call('POST', `/api/staff/${someone.id}/anonymise`, adminToken) }]
  },
  'PATCH /api/me': async () => {
    const someone = await api.person('renomeia')
    return [{ send: call('PATCH', '/api/me', someone.token, () => ({ name: 'Outro Nome' })) }]
  },
  'DELETE /api/staff/{id}': async () => {
    const pending = await api.account('recusa', { status: 'pending' })
    return [
      {
        send: call('DELETE', `/api/staff/${pending.id}`, adminToken, () => ({
          reason: 'Não conhecemos',
        })),
      },
    ]
  },
  'POST /api/staff/{id}/unlock': async () => {
    const locked = await api.account('trancada')
    for (let tries = 0; ; tries += 1) {
      assert.ok(tries < 50, 'the account does not lock')
      const login = await api.post('/api/auth/login', {
        email: locked.email,
        password: 'senha-errada-0',
      })
      if (login.statusCode === 429) break
    }
    return [{ send: call('POST', `/api/staff/${locked.id}/unlock`, adminToken) }]
  },
  'POST /api/staff/{id}/sign-out': async () => {
    const someone = await api.person('expulsa')
    return [{ send: call('POST', `/api/staff/${someone.id}/sign-out`, adminToken) }]
  },
  'POST /api/staff/{id}/password-reset': async () => {
    const someone = await api.account('link')
    return [{ send: call('POST', `/api/staff/${someone.id}/password-reset`, adminToken) }]
  },
  'DELETE /api/staff/{id}/mfa': async () => {
    const someone = await withTotp()
    return [{ send: call('DELETE', `/api/staff/${someone.id}/mfa`, adminToken) }]
  },
}

/** Rows in every table: what a failed write must leave as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{
    name: string
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
    api.database.db,
  )
  const counts: Record<string, number> = {}
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ count: number }>`select count(*) as count from ${sql.table(
      name,
    )}`.execute(api.database.db)
    counts[name] = Number(rows[0]?.count)
  }
  return counts
}

describe(
  'every write of the API on a full disk',
  { skip: canMountDisk ? false : 'needs root, for a tmpfs mount' },
  () => {
    it('answers 503 service_unavailable while the disk is full, works once there is room, and loses nothing', async () => {
      const document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
      const writes = Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'get')
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      assert.deepEqual(
        [...writes].sort(),
        Object.keys(WRITES).sort(),
        'every write operation of the document has a request here',
      )
      const prepared: [string, Prepared][] = []
      for (const operation of writes) {
        for (const request of await WRITES[operation]!()) prepared.push([operation, request])
      }
      const before = await rowCounts()

      let filler = ''
      const answers: string[] = []
      for (const [operation, { send, during }] of prepared) {
        filler = await fillDiskAfterCheckpoint(dataDir)
        const response = await send()
        const expected = during?.status ?? 503
        const code = response.body
          ? response.json<{ error?: { code: string } }>().error?.code
          : undefined
        if (
          response.statusCode !== expected ||
          (expected === 503 && code !== 'service_unavailable')
        ) {
          answers.push(`${operation}: ${response.statusCode} ${response.body}`)
        }
      }
      assert.deepEqual(answers, [], 'answers on a full disk that are not 503 service_unavailable')
      assert.deepEqual(await rowCounts(), before, 'a failed write left nothing behind')

      await rm(filler)
      assert.deepEqual(await rowCounts(), before, 'nothing written before the disk filled is lost')
      for (const [operation, { send }] of prepared) ok(await send(), `${operation} with room`)
      const integrity = await sql<{
        integrity_check: string
      }>`pragma integrity_check`.execute(api.database.db)
      assert.deepEqual(integrity.rows, [{ integrity_check: 'ok' }])
      // Work done after the answer (mail, audit) failed quietly: logged, never unhandled.
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.deepEqual(unhandled, [])
    })
  },
)
