import { cilAccountLogout, cilUser } from '@coreui/icons'
import CIcon from '@coreui/icons-react'
import { CAvatar, CDropdownDivider, CDropdownHeader, CDropdownItem } from '@coreui/react'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../routing/paths'
import { layoutMessages } from './layout-messages'
import { useCurrentUser } from '../session/current-user'
import { signOut } from '../session/sign-out'
import { HeaderMenu } from './header-menu'

/** "AS" for Ana Souza: the avatar when there is no photo. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const first = words[0]?.[0] ?? ''
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : ''
  return (first + last).toUpperCase() || '?'
}

export function UserMenu() {
  const { user } = useCurrentUser()
  const [leaving, setLeaving] = useState(false)

  return (
    <HeaderMenu
      label={layoutMessages.header.userMenu}
      toggleClassName="px-1"
      menuClassName="pt-0 painel-user-menu"
      toggle={
        <CAvatar color="primary" textColor="white" size="md">
          {user ? initialsOf(user.name) : <CIcon icon={cilUser} aria-hidden="true" />}
        </CAvatar>
      }
    >
      <CDropdownHeader className="bg-body-secondary text-body fw-semibold mb-2">
        {user ? (
          <>
            <span className="d-block small text-body-secondary">
              {layoutMessages.header.signedInAs}
            </span>
            <span className="d-block text-truncate" title={user.name}>
              {user.name}
            </span>
            <span
              className="d-block text-truncate small fw-normal text-body-secondary"
              title={user.email}
            >
              {user.email}
            </span>
          </>
        ) : (
          layoutMessages.header.userMenu
        )}
      </CDropdownHeader>
      {/* Not while a required second factor is set up: it would lead back to its setup. */}
      {!user?.mfaSetupRequired && (
        <>
          <CDropdownItem as={Link} to={paths.profile}>
            <CIcon icon={cilUser} className="me-2" aria-hidden="true" />
            {layoutMessages.header.profile}
          </CDropdownItem>
          <CDropdownDivider />
        </>
      )}
      <CDropdownItem
        as="button"
        type="button"
        disabled={leaving}
        onClick={() => {
          setLeaving(true)
          void signOut()
        }}
      >
        <CIcon icon={cilAccountLogout} className="me-2" aria-hidden="true" />
        {layoutMessages.header.signOut}
      </CDropdownItem>
    </HeaderMenu>
  )
}
