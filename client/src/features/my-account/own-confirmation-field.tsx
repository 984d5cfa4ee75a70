import { CButton } from '@coreui/react'
import { useEffect, useRef, useState } from 'react'
import type { FieldBinding } from '../../forms/form-field'
import { FormField } from '../../forms/form-field'
import { PasswordField } from '../../forms/password-field'
import {
  confirmationWords as text,
  confirmsWithCode,
  type ConfirmationWays,
} from './own-confirmation'

/**
 * Which of the two the form asks for: the password when the person has one, the code when they
 * have only the app, and the person's choice (a link under the field) when they have both.
 */
export function useConfirmationChoice(ways: ConfirmationWays) {
  const [chose, setChose] = useState<'password' | 'code'>('password')
  const usingCode = confirmsWithCode(ways, chose)
  const canSwitch = ways.password && ways.authenticator
  return {
    usingCode,
    canSwitch,
    toggle: () => setChose(usingCode ? 'password' : 'code'),
  }
}

/**
 * "Senha atual", or "Código do autenticador" (an app's six digits or a recovery code, so a text
 * keyboard), with "Usar código do autenticador" / "Usar a senha atual" under it when the person
 * has both. The field shown after a switch takes the focus; the other one's message goes.
 */
export function OwnConfirmationField({
  choice,
  password,
  code,
}: {
  choice: ReturnType<typeof useConfirmationChoice>
  password: FieldBinding
  code: FieldBinding
}) {
  const holder = useRef<HTMLDivElement>(null)
  const [switched, setSwitched] = useState(0)
  useEffect(() => {
    if (switched > 0) holder.current?.querySelector('input')?.focus()
  }, [switched])
  const switchField = () => {
    ;(choice.usingCode ? code : password).onEdit('')
    choice.toggle()
    setSwitched((n) => n + 1)
  }
  return (
    <div ref={holder} className="mb-3">
      {choice.usingCode ? (
        <FormField
          {...code}
          key="code"
          label={text.code}
          type="text"
          autoComplete="one-time-code"
          hint={text.codeHint}
          inputProps={{
            autoCapitalize: 'none',
            spellCheck: false,
            maxLength: 64,
            inputMode: 'text',
          }}
        />
      ) : (
        <PasswordField
          {...password}
          key="password"
          label={text.password}
          autoComplete="current-password"
        />
      )}
      {choice.canSwitch && (
        <CButton color="link" className="p-0" onClick={switchField}>
          {choice.usingCode ? text.usePassword : text.useCode}
        </CButton>
      )}
    </div>
  )
}
