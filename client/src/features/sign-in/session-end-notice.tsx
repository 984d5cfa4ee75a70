import { useLocation } from 'react-router-dom'
import { REDIRECT_PARAM } from '../../routing/paths'
import { Notice } from '../../ui/notice'
import { readSessionEnd, SIGNED_OUT } from '../../session/session-end'
import { sessionEndMessages as text } from './session-end-messages'

/**
 * Why the login page is open, when a session just ended: "Você saiu." after "Sair", or what the
 * server said (expired, ended elsewhere, disabled, password changed). A code this client does not
 * know yet shows the server's own pt-BR message. The login page loads this module only when
 * there is such a record (its chunk, with the texts, stays out of the cold #/login).
 */
export default function SessionEndNotice() {
  // Sent here from a screen (?redirect=…): signing in goes back to it.
  const returning = new URLSearchParams(useLocation().search).has(REDIRECT_PARAM)
  const end = readSessionEnd()
  if (end === null) return null
  if (end.code === SIGNED_OUT) return <Notice color="info" text={text.reasons.signed_out!} />
  const reason = text.reasons[end.code] ?? end.message ?? text.fallback
  return <Notice color="warning" text={returning ? `${reason} ${text.andBack}` : reason} />
}
