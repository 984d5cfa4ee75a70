import { legacy_createStore as createStore, type Store } from 'redux'
import type { ColorMode } from './color-mode'

/** The app state of docs/architecture.md, "Fixed contracts": two fields, changed only by the one action type `set`. */
export interface AppState {
  sidebarShow: boolean
  /** The chosen colour mode (light, dark or auto), mirrored from the switcher. */
  theme: ColorMode
}

export const initialState: AppState = { sidebarShow: true, theme: 'light' }

/** `{ type: 'set', sidebarShow: false }`: merges the given fields into the state. */
export type SetAction = { type: 'set' } & Partial<AppState>

const FIELDS = Object.keys(initialState) as (keyof AppState)[]

export function appReducer(state: AppState = initialState, action: { type: string }): AppState {
  if (action.type !== 'set') return state
  const changes: Partial<AppState> = {}
  for (const field of FIELDS) {
    const value = (action as SetAction)[field]
    // Only known fields, and never `undefined`: a caller's typo cannot corrupt the state.
    if (value !== undefined) Object.assign(changes, { [field]: value })
  }
  const changed = FIELDS.some((field) => field in changes && changes[field] !== state[field])
  return changed ? { ...state, ...changes } : state
}

export type AppStore = Store<AppState, SetAction>

export function createAppStore(preloaded: Partial<AppState> = {}): AppStore {
  return createStore(appReducer, { ...initialState, ...preloaded })
}
