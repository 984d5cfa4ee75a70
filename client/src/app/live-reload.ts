/**
 * Development only (`npm run dev`, never in the production build): reloads the page when esbuild
 * has rebuilt the client. The events come from scripts/dev.ts, on the page's own origin (the CSP
 * allows no other).
 */
const events = new EventSource('/__dev/live-reload')
events.addEventListener('reload', () => window.location.reload())

export {}
