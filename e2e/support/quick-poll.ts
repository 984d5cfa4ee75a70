/**
 * How often the support code asks again for what a test waits on (a mail in the folder, the page's
 * route, a registration in the list): each arrives within tens of milliseconds, and Playwright's
 * own steps (100, 250, 500 ms, then each second) kept a test waiting up to a quarter of a second
 * after it had, at every account made and every navigation. The last step repeats.
 */
export const QUICK_POLL_MS = [20, 50, 100, 200]
