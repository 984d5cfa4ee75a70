import { Component, type ReactNode } from 'react'

interface Props {
  /** What to show instead of the children once they threw. */
  fallback: (error: unknown) => ReactNode
  /** The current path: moving to another page clears the error, as a new page should. */
  resetKey: string
  children: ReactNode
}

/**
 * Catches what a page or screen throws while rendering (a chunk that failed to load, a bug) and
 * shows the panel's error screen in its place. React has error boundaries only as classes.
 */
export class RouteErrorBoundary extends Component<
  Props,
  { error: unknown; caught: boolean; key: string }
> {
  override state = { error: null as unknown, caught: false, key: this.props.resetKey }

  static getDerivedStateFromError(error: unknown) {
    return { error, caught: true }
  }

  static getDerivedStateFromProps(props: Props, state: { key: string }) {
    return props.resetKey === state.key ? null : { error: null, caught: false, key: props.resetKey }
  }

  override render() {
    return this.state.caught ? this.props.fallback(this.state.error) : this.props.children
  }
}
