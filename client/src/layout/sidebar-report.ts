/**
 * Whether a visibility CoreUI's sidebar reports (`onVisibleChange`) is its current state, or an
 * echo of an earlier one.
 *
 * CSidebar measures whether it is in the viewport after each render and reports the value one
 * render later, so the report can describe the sidebar as it was before the latest press: pressed
 * again while it slides out, it reports "hidden" just after it was told to show, and passing that
 * on would undo the press. When a transition is cut short (no `transitionend`), those late reports
 * and the presses they answer chase each other for ever. A report is passed on only when the
 * sidebar's classes agree with it: on a phone it shows with `show`, on a wide screen it hides with
 * `hide`.
 */
export function sidebarReportIsCurrent(reportedVisible: boolean, sidebar: HTMLElement): boolean {
  // CoreUI's own test for the phone layout (CSidebar's isOnMobile).
  const onPhone = getComputedStyle(sidebar).getPropertyValue('--cui-is-mobile') !== ''
  const shown = onPhone ? sidebar.classList.contains('show') : !sidebar.classList.contains('hide')
  return shown === reportedVisible
}
