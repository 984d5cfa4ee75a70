import { Link } from 'react-router-dom'
import type { MyActivity } from '../../../../common/api/dashboard'
import { paths } from '../../routing/paths'
import { formatDateTime } from '../../ui/format-date'
import { Notice } from '../../ui/notice'
import { dashboardMessages } from './dashboard-messages'

const text = dashboardMessages.mine

/** At or under this many recovery codes left, Início says to make new ones. */
const FEW_RECOVERY_CODES = 3

/** Seus acessos: the sign-in before this one, failures since, and the last few sign-ins. */
export function MySignIns({ mine }: { mine: MyActivity }) {
  const words = dashboardMessages.dashboard
  return (
    <>
      {mine.lastSignIn ? (
        <p className="mb-2">
          {words.lastSignIn}: <strong>{formatDateTime(mine.lastSignIn.at)}</strong>
          {(mine.lastSignIn.ip || mine.lastSignIn.userAgent) && (
            <span
              className="d-block small text-body-secondary"
              style={{ overflowWrap: 'anywhere' }}
            >
              {words.from(mine.lastSignIn.ip, mine.lastSignIn.userAgent)}
            </span>
          )}
        </p>
      ) : (
        // Only when it is so: the one sign-in listed. (None before this session, yet others
        // since, from other browsers: the list below says it all.)
        mine.signIns.length <= 1 && <p className="mb-2">{words.firstSignIn}</p>
      )}
      {mine.failedSince > 0 && (
        <Notice color="warning" text={words.failedSince(mine.failedSince, mine.passwordSignIn)} />
      )}
      {/* The list only says more than the line above once there is more than this one. */}
      {mine.signIns.length > 1 && (
        <>
          <h3 className="h6 mt-3">{text.recentSignIns}</h3>
          <ul className="list-unstyled mb-0" aria-label={text.recentSignIns}>
            {mine.signIns.map((signIn, index) => (
              <li
                key={signIn.at}
                className={index > 0 ? 'py-1 border-top' : 'py-1'}
                style={{ overflowWrap: 'anywhere' }}
              >
                {formatDateTime(signIn.at)}
                <span className="d-block small text-body-secondary">
                  {[signIn.userAgent ?? text.unknownBrowser, signIn.ip].filter(Boolean).join(' · ')}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  )
}

/** Sessões abertas: how many, and where to end them. */
export function MySessions({ mine }: { mine: MyActivity }) {
  return (
    <>
      <p className="mb-2">{text.openSessions(mine.openSessions)}</p>
      <Link to={paths.profile}>{mine.openSessions > 1 ? text.endSessions : text.seeSessions}</Link>
    </>
  )
}

/** Verificação em duas etapas: on or off, with what; a link to set it up or change it. */
export function MySecondFactors({ mine }: { mine: MyActivity }) {
  const { totp, passkeys, recoveryCodesLeft } = mine.secondFactors
  const on = totp || passkeys > 0
  return (
    <>
      <p className="mb-2">
        <span className={`badge text-bg-${on ? 'success' : 'warning'} me-2`}>
          {on ? text.on : text.off}
        </span>
        {on ? text.onBecause(mine.passwordSignIn) : text.offBecause(mine.passwordSignIn)}
      </p>
      {/* Label and value on one line each, the value at the end, whatever the card's width. */}
      <dl className="mb-2">
        <div className="d-flex justify-content-between gap-2">
          <dt className="fw-normal">{text.app}</dt>
          <dd className="fw-semibold mb-1">{totp ? text.appOn : text.appOff}</dd>
        </div>
        <div className="d-flex justify-content-between gap-2">
          <dt className="fw-normal">{text.passkeys}</dt>
          <dd className="fw-semibold mb-1">{passkeys}</dd>
        </div>
        {totp && (
          <div className="d-flex justify-content-between gap-2">
            <dt className="fw-normal">{text.recoveryCodes}</dt>
            <dd className="fw-semibold mb-0">{recoveryCodesLeft}</dd>
          </div>
        )}
      </dl>
      {totp && recoveryCodesLeft <= FEW_RECOVERY_CODES && (
        <Notice color="warning" text={text.fewCodes(recoveryCodesLeft)} />
      )}
      <Link to={paths.profile}>{on ? text.manage : text.setUp}</Link>
    </>
  )
}
