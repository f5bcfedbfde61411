// Statistics as CSV (RFC 4180): one row per player and game kind, plus an "all" row per player.
import { GAME_IDS } from '../games'
import { figuresOf, type PlayerStatistics } from './aggregate'

/** One column per figure: those every game has, then each game's own, in the registry's order (a figure two games share once). */
const FIGURES = [...new Set(GAME_IDS.flatMap((game) => figuresOf(game).map((figure) => figure.key)))]

/**
 * A cell a spreadsheet may take for a formula: one that starts with a tab or a line end, or with
 * `=`, `+`, `-` or `@` after whatever a spreadsheet skips first (spaces of every kind, control and
 * invisible characters: zero-width ones, direction marks, the byte-order mark), those four in
 * their full-width and small forms too (＝＋－＠, ﹦﹢﹣﹫), which some spreadsheets read as them.
 */
// eslint-disable-next-line no-control-regex, no-misleading-character-class
const FORMULA_START = /^(?:[\t\r\n]|[\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b])/

function cell(value: unknown): string {
  if (value === undefined || value === null) return ''
  let text = String(value)
  // A name starting like a formula would run as one in a spreadsheet: written as text instead.
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function statisticsCsv(players: readonly PlayerStatistics[]): string {
  const rows: string[] = [['player', 'game', ...FIGURES].join(',')]
  for (const player of players) {
    const overall: Record<string, unknown> = { games: player.games, wins: player.wins, winRate: player.winRate }
    rows.push([cell(player.name), 'all', ...FIGURES.map((figure) => cell(overall[figure]))].join(','))
    for (const [game, figures] of Object.entries(player.byGame)) {
      const values = figures as unknown as Record<string, unknown>
      rows.push([cell(player.name), game, ...FIGURES.map((figure) => cell(values[figure]))].join(','))
    }
  }
  return `${rows.join('\r\n')}\r\n`
}
