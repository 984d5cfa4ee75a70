import CIcon from '@coreui/icons-react'
import {
  CBadge,
  CCloseButton,
  CNavItem,
  CNavLink,
  CSidebar,
  CSidebarBrand,
  CSidebarHeader,
  CSidebarNav,
} from '@coreui/react'
import { useRef } from 'react'
import { Link, NavLink } from 'react-router-dom'
import { useAppDispatch, useAppSelector } from '../state/hooks'
import { useInnerRoutes } from '../routing/inner-routes-context'
import { paths } from '../routing/paths'
import { BrandMark } from '../ui/brand-mark'
import { messages } from '../words/messages'
import { layoutMessages } from './layout-messages'
import { useCurrentUser } from '../session/current-user'
import { useAccess } from '../session/use-access'
import {
  SEES_DELETION_REQUESTS,
  SEES_WAITING_REGISTRATIONS,
} from '../../../common/staff-permissions'
import { mayOpen } from './route-permission'
import { SCREEN_ICONS } from './screen-icons'
import { sidebarReportIsCurrent } from './sidebar-report'
import { usePendingCount } from './use-pending-count'

/**
 * A count beside a screen's name, said whole to a screen reader; nothing while it is unknown or 0.
 * `first`: the first badge after the name, pushed to the right edge; the next sits beside it.
 */
function CountBadge({
  count,
  color,
  first,
  words,
}: {
  count: number | null
  color: 'warning' | 'light'
  first: boolean
  words: (count: number) => string
}) {
  if (count === null || count === 0) return null
  return (
    <CBadge
      color={color}
      className={`${first ? 'ms-auto' : 'ms-1'} text-dark`}
      title={words(count)}
    >
      {count}
      <span className="visually-hidden"> {words(count)}</span>
    </CBadge>
  )
}

/**
 * The sidebar: brand and the inner screens. Its visibility is the redux `sidebarShow`; on small
 * screens CoreUI shows it over the page and closes it on a click outside or on a link.
 */
export function AppSidebar() {
  const dispatch = useAppDispatch()
  const element = useRef<HTMLElement>(null)
  const sidebarShow = useAppSelector((state) => state.sidebarShow)
  const { user } = useCurrentUser()
  const access = useAccess()
  // Until a required second factor is set up, its setup is the only place to go (the server
  // refuses the rest: second-factor-gate.tsx).
  const settingUp = user?.mfaSetupRequired === true
  const routes = useInnerRoutes()
  const screens = settingUp
    ? routes.filter((route) => route.path === paths.secondFactorSetup)
    : routes.filter((route) => !route.notInMenu && mayOpen(route, access))
  // The waiting registrations concern whoever may see and approve them (within their team: the
  // server counts only those), and the open requests for deletion whoever may decide them: both
  // are reached from Equipe (its "Pedidos de exclusão"), so their badges stand beside it.
  const { registrations, deletionRequests } = usePendingCount(
    SEES_WAITING_REGISTRATIONS.every(access.can) && !settingUp,
    SEES_DELETION_REQUESTS.every(access.can) && !settingUp,
  )

  return (
    <CSidebar
      as="nav"
      id="painel-sidebar"
      aria-label={messages.nav.label}
      className="border-end"
      colorScheme="dark"
      position="fixed"
      visible={sidebarShow}
      ref={element}
      // CoreUI closes the phone's sidebar itself (a tap outside, a link, Escape) and says so here.
      onVisibleChange={(visible: boolean) => {
        if (element.current && sidebarReportIsCurrent(visible, element.current))
          dispatch({ type: 'set', sidebarShow: visible })
      }}
    >
      <CSidebarHeader className="border-bottom">
        <CSidebarBrand
          as={Link}
          to={paths.dashboard}
          className="d-flex align-items-center gap-2 text-decoration-none"
        >
          <BrandMark size={32} />
          <span className="fs-5 fw-semibold">{messages.app.name}</span>
        </CSidebarBrand>
        <CCloseButton
          className="d-lg-none"
          dark
          aria-label={layoutMessages.header.closeSidebar}
          onClick={() => dispatch({ type: 'set', sidebarShow: false })}
        />
      </CSidebarHeader>
      <CSidebarNav>
        {screens.map((screen) => (
          <CNavItem key={screen.path}>
            <CNavLink as={NavLink} to={screen.path}>
              <CIcon
                customClassName="nav-icon"
                icon={SCREEN_ICONS[screen.icon]}
                aria-hidden="true"
              />
              {screen.title}
              {screen.path === paths.staff && (
                <>
                  {/* Warning colours on the dark sidebar: dark text on amber, 9:1. */}
                  <CountBadge
                    count={registrations}
                    color="warning"
                    first
                    words={layoutMessages.sidebar.pending}
                  />
                  {/* Light on the dark sidebar, dark text: apart from the registrations' amber. */}
                  <CountBadge
                    count={deletionRequests}
                    color="light"
                    first={!registrations}
                    words={layoutMessages.sidebar.deletionRequests}
                  />
                </>
              )}
            </CNavLink>
          </CNavItem>
        ))}
      </CSidebarNav>
    </CSidebar>
  )
}
