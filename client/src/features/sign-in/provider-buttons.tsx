import type { MouseEvent } from 'react'
import { useLocation } from 'react-router-dom'
import {
  PROVIDER_BUTTON_CLASS,
  PROVIDERS_CONTAINER_ID,
  PROVIDERS_DATA_ID,
  providerStartPath,
  readProviderButtons,
} from '../../../../common/sign-in-providers'
import {
  MARK_SHAPES,
  MARK_SVG_ATTRIBUTES,
  type ProviderMark,
} from '../../../../common/provider-marks'
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

/** `stroke-width` → `strokeWidth`: React's names for the SVG attributes written in markup. */
const reactName = (name: string) =>
  name.startsWith('aria-') ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
const reactProps = (attributes: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [reactName(name), value]))

/** The mark beside the words, as the server wrote it (common/provider-marks.ts). */
function ProviderMarkSvg({ mark }: { mark: ProviderMark }) {
  return (
    <svg {...reactProps(MARK_SVG_ATTRIBUTES)}>
      {MARK_SHAPES[mark].map(({ element: Shape, attributes }, index) => (
        <Shape key={index} {...reactProps(attributes)} />
      ))}
    </svg>
  )
}

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
      {providers.map(({ name, text, mark }) => (
        <a key={name} className={PROVIDER_BUTTON_CLASS} href={providerStartPath(name)} onClick={go}>
          <ProviderMarkSvg mark={mark} />
          {text}
        </a>
      ))}
    </div>
  )
}
