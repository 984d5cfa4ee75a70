import { useState } from 'react'
import type { DeletionRequestBody } from '../../../../common/api/account-deletion'
import { apiRequest } from '../../api/api-client'
import { PasswordField } from '../../forms/password-field'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'

const text = {
  title: 'Excluir minha conta',
  intro:
    'Peça a exclusão da sua conta. Quem administra o Painel analisa o pedido: ao aprovar, seus dados pessoais são apagados em todo o Painel e o registro de auditoria guarda só um pseudônimo. Se o pedido for recusado, você recebe o motivo por e-mail.',
  password: 'Senha atual',
  passwordRequired: 'Informe sua senha atual.',
  send: 'Pedir a exclusão da conta',
  sent: 'Pedido de exclusão enviado. Quem administra o Painel vai analisá-lo.',
}

type Field = 'deletionPassword'
const FIELDS: readonly Field[] = ['deletionPassword']
const FIELD_OF_ERROR = { wrong_password: 'deletionPassword' } as const

const askDeletion = (body: DeletionRequestBody) =>
  apiRequest<void>('me/deletion-request', { method: 'POST', body })

/** Minha conta › Excluir minha conta (POST /api/me/deletion-request), confirmed by the password. */
export function DeletionRequestCard() {
  const [sent, setSent] = useState(false)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: ({ deletionPassword }) =>
      deletionPassword === '' ? { deletionPassword: text.passwordRequired } : {},
    fieldOfError: FIELD_OF_ERROR,
    submit: async ({ deletionPassword }) => {
      await askDeletion({ password: deletionPassword })
      setSent(true)
    },
  })
  return (
    <AccountCard title={text.title} intro={text.intro}>
      {sent ? (
        <Notice color="success" text={text.sent} />
      ) : (
        <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
          <Notice text={form.serverError} />
          <PasswordField
            {...form.field('deletionPassword')}
            label={text.password}
            autoComplete="current-password"
          />
          <SubmitButton label={text.send} sending={form.sending} />
        </form>
      )}
    </AccountCard>
  )
}
