import { useState } from 'react'
import type { DeletionRequestBody } from '../../../../common/api/account-deletion'
import { apiRequest } from '../../session/api-client'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'
import { confirmationBody, validateConfirmation, type ConfirmationWays } from './own-confirmation'
import { OwnConfirmationField, useConfirmationChoice } from './own-confirmation-field'

const text = {
  title: 'Excluir minha conta',
  intro:
    'Peça a exclusão da sua conta. Quem administra o Painel analisa o pedido: ao aprovar, seus dados pessoais são apagados em todo o Painel e o registro de auditoria guarda só um pseudônimo. Se o pedido for recusado, você recebe o motivo por e-mail.',
  send: 'Pedir a exclusão da conta',
  sent: 'Pedido de exclusão enviado. Quem administra o Painel vai analisá-lo.',
}

type Field = 'deletionPassword' | 'deletionCode'
const FIELDS: readonly Field[] = ['deletionPassword', 'deletionCode']
const CONFIRMATION = { password: 'deletionPassword', code: 'deletionCode' } as const
const FIELD_OF_ERROR = { wrong_password: 'deletionPassword', wrong_code: 'deletionCode' } as const

const askDeletion = (body: DeletionRequestBody) =>
  apiRequest<void>('me/deletion-request', { method: 'POST', body })

/**
 * Minha conta › Excluir minha conta (POST /api/me/deletion-request), confirmed by the password or
 * a code of the authenticator app, whichever the person has (own-confirmation-field.tsx).
 */
export function DeletionRequestCard({ ways }: { ways: ConfirmationWays }) {
  const [sent, setSent] = useState(false)
  const choice = useConfirmationChoice(ways)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: (values) => validateConfirmation(choice, CONFIRMATION, values),
    fieldOfError: FIELD_OF_ERROR,
    submit: async ({ deletionPassword, deletionCode }) => {
      await askDeletion(confirmationBody(choice.usingCode, deletionPassword, deletionCode))
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
          <OwnConfirmationField
            choice={choice}
            password={form.field('deletionPassword')}
            code={form.field('deletionCode')}
          />
          <SubmitButton label={text.send} sending={form.sending} />
        </form>
      )}
    </AccountCard>
  )
}
