import { cilHistory, cilPeople, cilSpeedometer, cilUser } from '@coreui/icons'
import type { ScreenIcon } from '../app/inner-screens'

/** The CoreUI icon of each inner screen (kept out of the route table so the entry stays small). */
export const SCREEN_ICONS: Record<ScreenIcon, string[]> = {
  dashboard: cilSpeedometer,
  profile: cilUser,
  staff: cilPeople,
  audit: cilHistory,
}
