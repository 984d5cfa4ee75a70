import { CButton } from '@coreui/react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../routing/paths'
import { forgetRecoveryCodesLeft } from '../session/recovery-codes-left'

/** At or under this many codes left, the notice urges making new ones. */
export const FEW_RECOVERY_CODES = 3

/** Its words, here: this module loads only after a sign-in with a recovery code. */
const text = {
  usedOne: 'Você entrou com um código de recuperação.',
  left: (count: number) => `Restam ${count}; cada um serve uma vez.`,
  few: (count: number) =>
    `${count === 1 ? 'Resta só 1' : `Restam só ${count}`}: gere novos antes que acabem, pois sem eles e sem o aplicativo autenticador não há como entrar.`,
  none: 'Era o seu último. Gere novos agora: sem eles e sem o aplicativo autenticador não há como entrar.',
  generate: 'Gerar novos códigos em Minha conta',
  dismiss: 'Entendi',
}

/**
 * Said once after a sign-in with a recovery code (session/recovery-codes-left.ts): how many are
 * left, and, when few are, a push to make new ones. It stays above the screens until dismissed
 * or until the person goes to Minha conta to make them.
 */
export default function RecoveryCodesNotice({ left }: { left: number }) {
  const [shown, setShown] = useState(true)
  // Said once: a reload, or the next sign-in, does not say it again.
  useEffect(() => forgetRecoveryCodesLeft(), [])
  if (!shown) return null
  const few = left <= FEW_RECOVERY_CODES
  return (
    <div className={`alert alert-${few ? 'warning' : 'info'} mb-4`} role="status">
      <p className="mb-2">
        {text.usedOne} {left === 0 ? text.none : few ? text.few(left) : text.left(left)}
      </p>
      <div className="d-flex flex-wrap align-items-center gap-3">
        {few && (
          <Link
            to={paths.profile}
            className="btn btn-sm btn-primary"
            onClick={() => setShown(false)}
          >
            {text.generate}
          </Link>
        )}
        <CButton color="secondary" variant="outline" size="sm" onClick={() => setShown(false)}>
          {text.dismiss}
        </CButton>
      </div>
    </div>
  )
}
