// Statistics as CSV (RFC 4180): one row per player and game kind, plus an "all" row per player.
import type { PlayerStatistics } from './aggregate'

const FIGURES = [
  'games', 'wins', 'winRate',
  'roundsWon', 'toursWon', 'foursies', 'busts', 'devilsNumbers', 'falseFours', 'tabsHeld', 'throws', 'foursThrown', 'averageThrowsToFour',
  'turns', 'banked', 'averageTurn', 'bestTurn', 'farkles', 'farkleRate', 'hotDice', 'gamesToTarget', 'averageTurnsToTarget',
  'roundsSurvived', 'deathsByOnes', 'extraThrows'
] as const

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
