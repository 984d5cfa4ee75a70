import { Outlet, useNavigation } from 'react-router-dom'
import { useThemeParam } from '../theme/use-theme-param'
import { PageSpinner } from './page-spinner'

/** Around every route: the spinner while the next page's chunk loads, and the theme parameter. */
export function RootLayout() {
  const navigation = useNavigation()
  useThemeParam()
  return (
    <>
      <Outlet />
      {navigation.state === 'loading' && <PageSpinner overlay />}
    </>
  )
}
