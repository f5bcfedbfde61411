// Statistics as CSV (RFC 4180): one row per player and game kind, plus an "all" row per player.
import { GAME_IDS } from '../games'
import { figuresOf, type PlayerStatistics } from './aggregate'

/** One column per figure: those every game has, then each game's own, in the registry's order (a figure two games share once). */
const FIGURES = [...new Set(GAME_IDS.flatMap((game) => figuresOf(game).map((figure) => figure.key)))]

function cell(value: unknown): string {
  if (value === undefined || value === null) return ''
  let text = String(value)
  // A name starting like a formula would run as one in a spreadsheet: written as text instead.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
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
