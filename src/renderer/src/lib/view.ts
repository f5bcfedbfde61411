export type AppView = 'scoreboard' | 'control'

/** `/scoreboard` (headless host) or `#/scoreboard` (Electron loads a file) is the TV; the rest is the control app. */
export function viewFor(location: Pick<Location, 'pathname' | 'hash'>): AppView {
  const path = location.pathname.replace(/\/+$/, '')
  if (path.endsWith('/scoreboard') || path.endsWith('/scoreboard.html')) return 'scoreboard'
  const hash = location.hash.replace(/^#/, '').split('?')[0].replace(/\/+$/, '')
  if (hash === '/scoreboard' || hash === 'scoreboard') return 'scoreboard'
  return 'control'
}
