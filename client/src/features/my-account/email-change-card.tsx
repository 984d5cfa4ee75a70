import { useState } from 'react'
import type { EmailChangeBody } from '../../../../common/api/email-change'
import { apiRequest } from '../../session/api-client'
import { EmailField } from '../../forms/account-fields'
import { emailError } from '../../forms/auth-validation'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'
import { confirmationBody, validateConfirmation, type ConfirmationWays } from './own-confirmation'
import { OwnConfirmationField, useConfirmationChoice } from './own-confirmation-field'

const text = {
  title: 'Trocar e-mail',
  intro:
    'Enviamos um link ao novo endereço, que vale por 24 horas. Até você abrir o link, o e-mail atual continua valendo para entrar. O e-mail atual também recebe um aviso, com um link para cancelar.',
  newEmail: 'Novo e-mail',
  send: 'Enviar link de confirmação',
  sent: (email: string) =>
    `Pronto. Se ${email} puder ser usado, um link de confirmação chega lá em instantes. Abra-o para concluir a troca.`,
}

type Field = 'email' | 'password' | 'code'
const FIELDS: readonly Field[] = ['email', 'password', 'code']
const CONFIRMATION = { password: 'password', code: 'code' } as const
const FIELD_OF_ERROR = {
  wrong_password: 'password',
  wrong_code: 'code',
  same_email: 'email',
} as const

const askEmailChange = (body: EmailChangeBody) =>
  apiRequest<void>('me/email', { method: 'POST', body })

/**
 * Minha conta › Trocar e-mail (POST /api/me/email): confirmed here by the password or a code of
 * the authenticator app, whichever the person has (own-confirmation-field.tsx), and by the new
 * mailbox's link (the page of features/email-confirmation). The answer never says whether the
 * address is someone else's account, so the words do not either.
 */
export function EmailChangeCard({ ways }: { ways: ConfirmationWays }) {
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [round, setRound] = useState(0)
  const choice = useConfirmationChoice(ways)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: (values) => {
      const problem = emailError(values.email)
      return problem
        ? { email: problem, ...validateConfirmation(choice, CONFIRMATION, values) }
        : validateConfirmation(choice, CONFIRMATION, values)
    },
    fieldOfError: FIELD_OF_ERROR,
    submit: async ({ email, password, code }) => {
      setSentTo(null)
      await askEmailChange({ email, ...confirmationBody(choice.usingCode, password, code) })
      setSentTo(email.trim())
      setRound((value) => value + 1)
    },
  })
  return (
    <AccountCard title={text.title} intro={text.intro}>
      {sentTo && <Notice color="success" text={text.sent(sentTo)} />}
      <form key={round} noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        <Notice text={form.serverError} />
        <EmailField {...form.field('email')} label={text.newEmail} />
        <OwnConfirmationField
          choice={choice}
          password={form.field('password')}
          code={form.field('code')}
        />
        <SubmitButton label={text.send} sending={form.sending} />
      </form>
    </AccountCard>
  )
}
