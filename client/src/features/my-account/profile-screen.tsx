import { CCard, CCardBody, CSpinner } from '@coreui/react'
import { useState } from 'react'
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
      {/* These three ask for the current password: not for someone who signs in only through
          a provider (PASSWORD_SIGN_IN=off), whose e-mail is the provider's to change and who asks
          an admin for deletion (docs/personal-data.md). */}
      {user && passwordSignIn !== false && <EmailChangeCard />}
      {user && <TotpCard email={user.email} />}
      {user && <PasskeysCard />}
      {user && <ProvidersCard onPasswordSignIn={setPasswordSignIn} />}
      {user && <SessionsCard />}
      {user && <NoticesCard />}
      {user && <MyDataCard />}
      {user && passwordSignIn !== false && <DeletionRequestCard />}
    </>
  )
}
