import type { MouseEvent } from 'react'
import { useLocation } from 'react-router-dom'
import {
  PROVIDER_BUTTON_CLASS,
  PROVIDERS_CONTAINER_ID,
  PROVIDERS_DATA_ID,
  providerStartPath,
  readProviderButtons,
} from '../../../../common/sign-in-providers'
import { REDIRECT_PARAM } from '../../routing/paths'
import { safeRedirectTarget } from '../../routing/redirect-target'

/**
 * The page's data block, read once: written by the server into the page it serves
 * (server/static/sign-in-providers-page.ts); none at build time, where there is no document.
 */
const providers =
  typeof document === 'undefined'
    ? []
    : readProviderButtons(document.getElementById(PROVIDERS_DATA_ID)?.textContent)

/**
 * One "Entrar com …" link per sign-in provider, the same markup the server wrote into the
 * prerendered page (so hydration finds what it renders). Plain links: they work before the
 * script arrives; once it has, pressing one also passes where the person was going.
 */
export function ProviderButtons() {
  const target = safeRedirectTarget(new URLSearchParams(useLocation().search).get(REDIRECT_PARAM))
  const go = (event: MouseEvent<HTMLAnchorElement>) => {
    if (target === null) return
    event.preventDefault()
    const query = new URLSearchParams({ [REDIRECT_PARAM]: target }).toString()
    window.location.assign(`${event.currentTarget.getAttribute('href') ?? ''}?${query}`)
  }
  return (
    <div id={PROVIDERS_CONTAINER_ID}>
      {providers.map(({ name, text }) => (
        <a key={name} className={PROVIDER_BUTTON_CLASS} href={providerStartPath(name)} onClick={go}>
          {text}
        </a>
      ))}
    </div>
  )
}
