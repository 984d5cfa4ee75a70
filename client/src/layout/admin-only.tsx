import type { ReactNode } from 'react'
import { adminMessages } from '../words/admin-messages'
import { Notice } from '../ui/notice'
import { useCurrentUser } from '../session/current-user'

/**
 * An admins' screen: someone else who opens its URL stays inside the layout and reads that they
 * have no permission (the API refuses them anyway); nothing of the screen loads its data.
 */
export function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const { user } = useCurrentUser()
  if (!user) return null
  if (user.role !== 'admin') {
    return (
      <>
        <h1 className="h2 mb-3">{title}</h1>
        <Notice color="warning" text={adminMessages.noPermission} />
      </>
    )
  }
  return <>{children}</>
}
