import { CFormSwitch } from '@coreui/react'
import { useId, useState } from 'react'
import type { NoticePreferences } from '../../../../common/api/notices'
import { apiRequest, errorMessage } from '../../session/api-client'
import { useLoad } from '../../api/use-load'
import { AccountCard } from '../../ui/account-card'
import { Notice } from '../../ui/notice'

const text = {
  title: 'Avisos de segurança',
  intro:
    'O Painel avisa por e-mail quando algo muda na segurança da sua conta: segundo fator, códigos de recuperação, chaves de acesso, bloqueio por tentativas erradas, papel, provedores de identidade e e-mail. Esses avisos são sempre enviados; só o de navegador novo pode ser desligado.',
  newBrowser: 'Avisar quando alguém entrar na minha conta de um navegador novo',
  newBrowserHelp:
    'Um navegador novo é um que nunca entrou na sua conta. Os navegadores que já entraram não geram aviso.',
  on: 'Aviso de navegador novo ligado.',
  off: 'Aviso de navegador novo desligado.',
  loading: 'Carregando os avisos…',
}

const getNotices = (signal: AbortSignal) => apiRequest<NoticePreferences>('me/notices', { signal })
const setNotices = (body: NoticePreferences) =>
  apiRequest<NoticePreferences>('me/notices', { method: 'PATCH', body })

/**
 * Minha conta › Avisos de segurança (GET/PATCH /api/me/notices): the one notice a person may
 * turn off. The switch shows what the server holds: it moves once the server has taken it.
 */
export function NoticesCard() {
  const { load, set } = useLoad(getNotices)
  const prefs = load.state === 'ready' ? load.data : null
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)
  const helpId = useId()

  const change = async (newBrowser: boolean) => {
    setBusy(true)
    setNotice(null)
    try {
      set({ state: 'ready', data: await setNotices({ newBrowser }) })
      setNotice({ text: newBrowser ? text.on : text.off, error: false })
    } catch (error) {
      setNotice({ text: errorMessage(error), error: true })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      {load.state === 'failed' && <Notice text={load.message} />}
      {load.state === 'loading' && <p role="status">{text.loading}</p>}
      {prefs && (
        <>
          <CFormSwitch
            id={`${helpId}-switch`}
            label={text.newBrowser}
            checked={prefs.newBrowser}
            disabled={busy}
            aria-describedby={helpId}
            onChange={(event) => void change(event.target.checked)}
          />
          <p id={helpId} className="small text-body-secondary mb-0 mt-1">
            {text.newBrowserHelp}
          </p>
        </>
      )}
    </AccountCard>
  )
}
