import CIcon from '@coreui/icons-react'
import { CCard, CCardBody, CCardTitle, CCol, CRow } from '@coreui/react'
import { Link } from 'react-router-dom'
import { INNER_SCREENS } from '../app/inner-screens'
import { paths } from '../app/paths'
import { SCREEN_ICONS } from '../layout/screen-icons'
import { useDocumentTitle } from '../lib/use-document-title'
import { useCurrentUser } from '../session/current-user'
import { dashboardMessages } from '../messages-dashboard'

const text = dashboardMessages.dashboard

/** The landing screen after sign-in: who is signed in, and the way to every other screen. */
export default function DashboardScreen() {
  useDocumentTitle(text.title)
  const { user } = useCurrentUser()
  const shortcuts = INNER_SCREENS.filter(
    (screen) => screen.path !== paths.dashboard && (!screen.adminOnly || user?.role === 'admin'),
  )

  return (
    <>
      <h1 className="h2 mb-1">{text.title}</h1>
      <p className="lead">
        {user ? text.greeting(user.name.split(/\s+/)[0] ?? user.name) : text.greetingAnonymous}
      </p>
      <p className="text-body-secondary">{text.intro}</p>
      <h2 className="h5 mt-4">{text.shortcuts}</h2>
      <CRow xs={{ cols: 1 }} md={{ cols: 3 }} className="g-3">
        {shortcuts.map((screen) => (
          <CCol key={screen.path}>
            <CCard className="h-100">
              <CCardBody className="d-flex align-items-center gap-3">
                {/* Primary's emphasis shade: 3:1 or more against the card in both modes. */}
                <CIcon
                  icon={SCREEN_ICONS[screen.icon]}
                  size="xl"
                  className="text-primary-emphasis"
                  aria-hidden="true"
                />
                <CCardTitle as="h3" className="h6 mb-0 flex-grow-1">
                  <Link to={screen.path} className="stretched-link text-decoration-none">
                    {screen.title}
                  </Link>
                </CCardTitle>
              </CCardBody>
            </CCard>
          </CCol>
        ))}
      </CRow>
    </>
  )
}
