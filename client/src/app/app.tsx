import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router-dom'
import type { createPanelRouter } from './router'
import type { AppStore } from './store'

export function App({
  store,
  router,
}: {
  store: AppStore
  router: ReturnType<typeof createPanelRouter>
}) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  )
}
