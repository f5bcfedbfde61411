// The address of each screen. The renderer's router shows the screen of each; the headless host's
// server and the desktop app's app:// scheme answer each with index.html, so that a link, a
// bookmark or a reload opens that screen directly (anything else is answered only with a file of
// the built renderer, or not found).

export const SCREEN_PATHS = {
  /** Opens the Table while a game is on, Setup otherwise. */
  home: '/',
  setup: '/setup',
  table: '/table',
  devices: '/devices',
  /** This screen's camera: its tray, a test throw, capture mode. */
  camera: '/camera',
  history: '/history',
  players: '/players',
  /** One player's page; the name is percent-encoded (a `/` in it is `%2F`). */
  player: '/players/:name',
  /** The TV's scoreboard. */
  scoreboard: '/scoreboard'
} as const

export type ScreenName = keyof typeof SCREEN_PATHS

/** A path and the same with a slash at its end (the router takes both); a `:param` is one segment. */
function patternOf(path: string): RegExp {
  if (path === '/') return /^\/$/
  return new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}/?$`)
}

const SCREEN_PATTERNS = Object.values(SCREEN_PATHS).map(patternOf)
const SCOREBOARD_PATTERN = patternOf(SCREEN_PATHS.scoreboard)

/** Whether a request's path, as sent (still percent-encoded), is the address of a screen. */
export function isScreenPath(pathname: string): boolean {
  return SCREEN_PATTERNS.some((pattern) => pattern.test(pathname))
}

/** Whether a page's path is the TV's scoreboard (its screen is sent the TV's state). */
export function isScoreboardPath(pathname: string): boolean {
  return SCOREBOARD_PATTERN.test(pathname)
}

/** Where the league page is on the server of the host `host` (this computer, while it hosts the league: 127.0.0.1). */
export function leaguePageAddress(host: string, port: number): string {
  return `http://${host}:${port}/_league/`
}
