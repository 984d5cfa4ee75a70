import { cilMenu } from '@coreui/icons'
import CIcon from '@coreui/icons-react'
import { CContainer, CHeader, CHeaderToggler } from '@coreui/react'
import { useAppDispatch, useAppSelector } from '../state/hooks'
import { layoutMessages } from './layout-messages'
import { ColorModeSwitcher } from './color-mode-switcher'
import { AppBreadcrumb } from './app-breadcrumb'
import { UserMenu } from './user-menu'

/** Sidebar toggler, colour-mode switcher and user menu; the breadcrumb below them. */
export function AppHeader() {
  const dispatch = useAppDispatch()
  const sidebarShow = useAppSelector((state) => state.sidebarShow)

  return (
    <CHeader position="sticky" className="mb-4 p-0">
      <CContainer className="border-bottom px-4" fluid>
        <CHeaderToggler
          className="painel-sidebar-toggler"
          aria-label={layoutMessages.header.toggleSidebar}
          aria-controls="painel-sidebar"
          aria-expanded={sidebarShow}
          onClick={() => dispatch({ type: 'set', sidebarShow: !sidebarShow })}
        >
          <CIcon icon={cilMenu} size="lg" aria-hidden="true" />
        </CHeaderToggler>
        {/*
          A plain list: CoreUI's CHeaderNav puts role="navigation" on its <ul>, which takes the
          list semantics from these items; and they are controls, not navigation.
        */}
        <ul className="header-nav ms-auto align-items-center">
          <ColorModeSwitcher />
          <li className="nav-item py-1" aria-hidden="true">
            <div className="vr h-100 mx-2 text-body text-opacity-75" />
          </li>
          <UserMenu />
        </ul>
      </CContainer>
      <CContainer className="px-4" fluid>
        <AppBreadcrumb />
      </CContainer>
    </CHeader>
  )
}
