import { Notice } from '../lib/notice'
import { messages } from '../messages'
import { readSessionEnd, SIGNED_OUT } from '../session/session-end'
import { signInMessages } from '../sign-in-messages'

/**
 * Why the login page is open, when a session just ended: "Você saiu." after "Sair", or what the
 * server said (expired, ended elsewhere, disabled, password changed). A code this client does not
 * know yet shows the server's own pt-BR message.
 */
export function SessionEndNotice({ returning }: { returning: boolean }) {
  const end = readSessionEnd()
  if (end === null) return null
  if (end.code === SIGNED_OUT)
    return <Notice color="info" text={signInMessages.sessionEnd.signed_out!} />
  const reason = signInMessages.sessionEnd[end.code] ?? end.message ?? messages.login.sessionEnded
  return (
    <Notice
      color="warning"
      text={returning ? `${reason} ${signInMessages.sessionEndedAndBack}` : reason}
    />
  )
}
