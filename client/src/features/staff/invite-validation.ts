import { isValidEmail } from '../../../../common/account-rules'
import { NAME_PROBLEM_MESSAGES, nameProblem } from '../../../../common/name-rules'
import { messages } from '../../words/messages'
import { staffMessages } from './staff-messages'

export type InviteField = 'name' | 'email'

/**
 * The invite dialog's own checks, in pt-BR, before anything is sent: the browser's validation
 * would speak the browser's language ("Please fill out this field."). The name is someone
 * else's, so an empty one is "Informe o nome.", not registration's "Informe seu nome.".
 */
export function inviteProblems(name: string, email: string): Partial<Record<InviteField, string>> {
  const errors: Partial<Record<InviteField, string>> = {}
  const problem = nameProblem(name)
  if (problem)
    errors.name =
      problem === NAME_PROBLEM_MESSAGES.missing ? staffMessages.invite.nameRequired : problem
  if (email.trim() === '') errors.email = messages.forms.emailRequired
  else if (!isValidEmail(email)) errors.email = messages.forms.emailInvalid
  return errors
}
