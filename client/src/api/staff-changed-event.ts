/** Told when an admin changed an account, so the sidebar's pending count follows at once. */
export const STAFF_CHANGED_EVENT = 'painel:staff-changed'

export const announceStaffChange = () => window.dispatchEvent(new Event(STAFF_CHANGED_EVENT))
