import { CCard, CCardBody, CSpinner } from '@coreui/react'
import { useCallback, useState } from 'react'
import { formatDate } from '../../ui/format-date'
import { renameMe } from './my-account-api'
import { nameMessages } from '../../forms/name-messages'
import { Notice } from '../../ui/notice'
import { useCurrentUser } from '../../session/current-user'
import { ChangePasswordForm } from './change-password-form'
import { NameEditor } from '../../forms/name-editor'
import { SessionsCard } from './sessions-card'
import { ProvidersCard } from './providers-card'
import { TotpCard } from '../../second-factor/totp-card'
import { PasskeysCard } from '../../second-factor/passkeys-card'
import { accountMessages } from './my-account-messages'
import { NoticesCard } from './notices-card'
import { MyDataCard } from './my-data-card'
import { DeletionRequestCard } from './deletion-request-card'
import { EmailChangeCard } from './email-change-card'
import type { MfaStatus } from '../../second-factor/second-factor-api'
import { NoConfirmationCard } from './no-confirmation-card'
import { canConfirm } from './own-confirmation'
import { RoleTeamCard } from './role-team-card'

const text = accountMessages.profile

/** Minha conta: the signed-in user as the server knows them (GET /api/auth/me). */
export default function ProfileScreen() {
  const { user, error, loading, refresh } = useCurrentUser()
  /**
   * Known once the providers' list answers (GET /api/me/providers): an account a provider made,
   * or any but the first admin's with PASSWORD_SIGN_IN=off, has no password to change.
   */
  const [passwordSignIn, setPasswordSignIn] = useState<boolean | null>(null)
  /** Whether the authenticator app is on (GET /api/me/mfa, read by its card): a code confirms too. */
  const [authenticator, setAuthenticator] = useState(false)
  const onMfaStatus = useCallback((status: MfaStatus) => setAuthenticator(status.totp), [])
  // Until the providers' list answers, the password is taken for granted, as before it did.
  const ways = { password: passwordSignIn !== false, authenticator }

  return (
    <>
      <h1 className="h2 mb-4">{text.title}</h1>
      {loading && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {text.loading}
        </div>
      )}
      {error && <Notice text={error} />}
      {user && (
        <CCard className="painel-narrow">
          <CCardBody>
            <dl className="row mb-0">
              <dt className="col-sm-4">{text.name}</dt>
              <dd className="col-sm-8">
                <NameEditor
                  name={user.name}
                  label={nameMessages.editOwn}
                  save={async (name) => {
                    await renameMe(name)
                    // The header's menu and initials read the signed-in user: asked again.
                    refresh()
                  }}
                />
              </dd>
              <dt className="col-sm-4">{text.email}</dt>
              <dd className="col-sm-8">{user.email}</dd>
              <dt className="col-sm-4">{text.status}</dt>
              <dd className="col-sm-8">{text.statuses[user.status]}</dd>
              <dt className="col-sm-4">{text.since}</dt>
              <dd className="col-sm-8 mb-0">{formatDate(user.createdAt)}</dd>
            </dl>
          </CCardBody>
        </CCard>
      )}
      {user && <RoleTeamCard user={user} />}
      {user && passwordSignIn !== false && <ChangePasswordForm />}
      {/* The e-mail change and the deletion request are confirmed by the password or a code of
          the authenticator app: someone with neither (a provider's account, PASSWORD_SIGN_IN=off,
          no app) is told what to do instead (docs/personal-data.md). */}
      {user &&
        (canConfirm(ways) ? <EmailChangeCard ways={ways} /> : <NoConfirmationCard kind="email" />)}
      {user && <TotpCard email={user.email} onStatus={onMfaStatus} />}
      {user && <PasskeysCard />}
      {user && <ProvidersCard onPasswordSignIn={setPasswordSignIn} />}
      {user && <SessionsCard />}
      {user && <NoticesCard />}
      {user && <MyDataCard />}
      {user &&
        (canConfirm(ways) ? (
          <DeletionRequestCard ways={ways} />
        ) : (
          <NoConfirmationCard kind="deletion" />
        ))}
    </>
  )
}
