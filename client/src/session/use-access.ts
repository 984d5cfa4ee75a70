import { useMemo } from 'react'
import { accessOf, type ViewerAccess } from './access'
import { useCurrentUser } from './current-user'

/** The signed-in person's access (session/access.ts); nothing is allowed until they are known. */
export function useAccess(): ViewerAccess {
  const { user } = useCurrentUser()
  return useMemo(() => accessOf(user), [user])
}
