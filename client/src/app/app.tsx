import { Provider } from 'react-redux'
import { PanelRouter } from './router'
import type { AppStore } from './store'

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <PanelRouter />
    </Provider>
  )
}
