import { CButton } from '@coreui/react'
import { useState } from 'react'
import type { MyData } from '../../../../common/api/my-data'
import { apiRequest, errorMessage } from '../../api/api-client'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'

const text = {
  title: 'Meus dados',
  intro:
    'Baixe uma cópia de tudo o que o Painel guarda sobre você, em um arquivo JSON: conta, sessões e navegadores, chaves de acesso, segundo fator, provedores, e-mails enviados e o registro de auditoria do que você fez e do que foi feito na sua conta. Senhas, códigos e chaves secretas não vão no arquivo.',
  download: 'Baixar meus dados',
  preparing: 'Preparando…',
  done: (file: string) => `Arquivo ${file} baixado.`,
}

/**
 * Minha conta › Meus dados (GET /api/me/export): the copy the LGPD gives the person (art. 18,
 * II and V). Asked with the session's bearer, so it cannot be a plain link: saved from a Blob,
 * as the recovery codes are (second-factor/recovery-codes.tsx).
 */
export function MyDataCard() {
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)

  const download = async () => {
    setBusy(true)
    setNotice(null)
    try {
      const data = await apiRequest<MyData>('me/export')
      const file = `painel-meus-dados-${data.generatedAt.slice(0, 10)}.json`
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json;charset=utf-8' }),
      )
      const link = document.createElement('a')
      link.href = url
      link.download = file
      link.click()
      // Revoked once the click's download has taken the Blob.
      setTimeout(() => URL.revokeObjectURL(url), 0)
      setNotice({ text: text.done(file), error: false })
    } catch (error) {
      setNotice({ text: errorMessage(error), error: true })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      <CButton color="primary" variant="outline" disabled={busy} onClick={() => void download()}>
        {busy ? text.preparing : text.download}
      </CButton>
    </AccountCard>
  )
}
