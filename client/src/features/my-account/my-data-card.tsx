import { CButton } from '@coreui/react'
import { useState } from 'react'
import type { MyData } from '../../../../common/api/my-data'
import { apiRequest, errorMessage } from '../../session/api-client'
import { pageProviderLabels } from '../../audit-log/provider-labels'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'
import { myDataLetter } from './my-data-letter'

const text = {
  title: 'Meus dados',
  intro:
    'Baixe uma cópia de tudo o que o Painel guarda sobre você: conta, papel e time, sessões e navegadores, chaves de acesso, segundo fator, provedores, e-mails enviados e o registro do que você fez e do que foi feito na sua conta. "Para ler" é uma página que qualquer navegador abre; "JSON" leva os mesmos dados a outro programa. Senhas, códigos e chaves secretas não vão no arquivo.',
  readable: 'Baixar para ler (página)',
  json: 'Baixar em JSON',
  preparing: 'Preparando…',
  done: (file: string) => `Arquivo ${file} baixado.`,
}

type Format = 'html' | 'json'

/** The file of a copy, in the format asked for. */
function fileOf(data: MyData, format: Format): { name: string; blob: Blob } {
  const name = `painel-meus-dados-${data.generatedAt.slice(0, 10)}.${format}`
  if (format === 'json') {
    return {
      name,
      blob: new Blob([JSON.stringify(data, null, 2)], { type: 'application/json;charset=utf-8' }),
    }
  }
  const letter = myDataLetter(data, {
    labels: pageProviderLabels(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  })
  return { name, blob: new Blob([letter], { type: 'text/html;charset=utf-8' }) }
}

/**
 * Minha conta › Meus dados (GET /api/me/export): the copy the LGPD gives the person (art. 18,
 * I, II and V), as a page to read (my-data-letter.ts, in the browser's local time) or as JSON
 * for another program. Asked with the session's bearer, so it cannot be a plain link: saved
 * from a Blob, as the recovery codes are (second-factor/recovery-codes.tsx).
 */
export function MyDataCard() {
  const [busy, setBusy] = useState<Format | null>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)

  const download = async (format: Format) => {
    setBusy(format)
    setNotice(null)
    try {
      const { name, blob } = fileOf(await apiRequest<MyData>('me/export'), format)
      const url = URL.createObjectURL(blob)
      const link = document.createElement('a')
      link.href = url
      link.download = name
      link.click()
      // Revoked once the click's download has taken the Blob.
      setTimeout(() => URL.revokeObjectURL(url), 0)
      setNotice({ text: text.done(name), error: false })
    } catch (error) {
      setNotice({ text: errorMessage(error), error: true })
    } finally {
      setBusy(null)
    }
  }

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      <div className="d-flex flex-wrap gap-2">
        <CButton color="primary" disabled={busy !== null} onClick={() => void download('html')}>
          {busy === 'html' ? text.preparing : text.readable}
        </CButton>
        <CButton
          color="primary"
          variant="outline"
          disabled={busy !== null}
          onClick={() => void download('json')}
        >
          {busy === 'json' ? text.preparing : text.json}
        </CButton>
      </div>
    </AccountCard>
  )
}
