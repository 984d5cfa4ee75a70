import { layoutMessages } from './layout-messages'

/** CoreUI's CFooter is a <div>; a <footer> with the same class is the page's contentinfo landmark. */
export function AppFooter() {
  return (
    <footer className="footer px-4">
      <span>{layoutMessages.footer.text}</span>
      <span className="ms-auto text-body-secondary">
        {layoutMessages.footer.version} {__APP_VERSION__}
      </span>
    </footer>
  )
}
