import { useDispatch, useSelector } from 'react-redux'
import type { AppState, AppStore } from './store'

/** Typed versions of react-redux's hooks: the state and the one action type are known. */
export const useAppSelector = useSelector.withTypes<AppState>()
export const useAppDispatch = useDispatch.withTypes<AppStore['dispatch']>()
