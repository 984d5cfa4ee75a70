import { useState } from 'react'
import type { EmailChangeBody } from '../../../../common/api/email-change'
import { apiRequest } from '../../api/api-client'
import { EmailField } from '../../forms/account-fields'
import { validateLogin, type LoginField } from '../../forms/auth-validation'
import { PasswordField } from '../../forms/password-field'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'

const text = {
  title: 'Trocar e-mail',
  intro:
    'Enviamos um link ao novo endereço, que vale por 24 horas. Até você abrir o link, o e-mail atual continua valendo para entrar. O e-mail atual também recebe um aviso, com um link para cancelar.',
  newEmail: 'Novo e-mail',
  password: 'Senha atual',
  send: 'Enviar link de confirmação',
  sent: (email: string) =>
    `Pronto. Se ${email} puder ser usado, um link de confirmação chega lá em instantes. Abra-o para concluir a troca.`,
}

const FIELDS: readonly LoginField[] = ['email', 'password']
const FIELD_OF_ERROR = { wrong_password: 'password', same_email: 'email' } as const

const askEmailChange = (body: EmailChangeBody) =>
  apiRequest<void>('me/email', { method: 'POST', body })

/**
 * Minha conta › Trocar e-mail (POST /api/me/email): confirmed by the password here and by the
 * new mailbox's link (the page of features/email-confirmation). The answer never says whether
 * the address is someone else's account, so the words do not either.
 */
export function EmailChangeCard() {
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [round, setRound] = useState(0)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateLogin,
    fieldOfError: FIELD_OF_ERROR,
    submit: async ({ email, password }) => {
      setSentTo(null)
      await askEmailChange({ email, password })
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
        <PasswordField
          {...form.field('password')}
          label={text.password}
          autoComplete="current-password"
        />
        <SubmitButton label={text.send} sending={form.sending} />
      </form>
    </AccountCard>
  )
}
