import { defineStore } from 'pinia'
import { computed, reactive, ref } from 'vue'
import type { GameSetup } from '../../../shared/api'
import type { GameId } from '../../../shared/engine/types'

export interface GameChoice {
  id: GameId
  title: string
  blurb: string
  minPlayers: number
}

export const GAME_CHOICES: GameChoice[] = [
  { id: 'foursies', title: 'Foursies', blurb: 'Four dice, race to exactly four points', minPlayers: 1 },
  { id: 'farkle', title: 'Farkle', blurb: 'Six dice, set aside scorers, bank or farkle', minPlayers: 1 },
  { id: 'fouche', title: 'Fouche', blurb: 'Farkle’s cousin with equal turns', minPlayers: 1 },
  { id: 'four-plus', title: '4-PLU$', blurb: 'Four dice, fixed rounds, mind the 1s', minPlayers: 2 }
]

export type FoursiesMatch = 'round' | 'tour' | 'tour-de-fours'
export type FoursiesTour = 'first-to-four' | 'four-rounds'
export type DevilsNumber = 'none' | 'bust' | 'reset'

export interface SetupOptions {
  match: FoursiesMatch
  tour: FoursiesTour
  devilsNumber: DevilsNumber
  tab: number
  farkleEntry: number
  farkleTarget: number
  foucheEntry: number
  foucheTarget: number
  rounds: number
}

export function defaultOptions(): SetupOptions {
  return {
    match: 'round',
    tour: 'first-to-four',
    devilsNumber: 'none',
    tab: 0,
    farkleEntry: 500,
    farkleTarget: 10000,
    foucheEntry: 0,
    foucheTarget: 10000,
    rounds: 3
  }
}

export type BuiltSetup = { ok: true; setup: GameSetup } | { ok: false; error: string }

let nextPlayerKey = 1

export interface PlayerSlot {
  /** Stable key for the list while names are typed and rows move. */
  key: number
  name: string
  /** Played by the computer. */
  computer: boolean
}

/** What is being chosen on the Setup screen; kept while switching tabs. */
export const useSetupStore = defineStore('setup', () => {
  const game = ref<GameId>('foursies')
  const players = ref<PlayerSlot[]>([
    { key: nextPlayerKey++, name: '', computer: false },
    { key: nextPlayerKey++, name: '', computer: false }
  ])
  const options = reactive<SetupOptions>(defaultOptions())

  const choice = computed(() => GAME_CHOICES.find((candidate) => candidate.id === game.value)!)
  const names = computed(() => players.value.map((player) => player.name.trim()).filter((name) => name !== ''))

  function addPlayer(name = ''): void {
    const empty = name ? players.value.find((player) => player.name.trim() === '') : undefined
    if (empty) empty.name = name
    else players.value.push({ key: nextPlayerKey++, name, computer: false })
  }

  function removePlayer(index: number): void {
    players.value.splice(index, 1)
    keepTabInRange()
  }

  function movePlayer(index: number, offset: -1 | 1): void {
    const target = index + offset
    if (target < 0 || target >= players.value.length) return
    const list = players.value
    ;[list[index], list[target]] = [list[target], list[index]]
  }

  function keepTabInRange(): void {
    const count = Math.max(1, names.value.length)
    if (options.tab >= count) options.tab = 0
  }

  function rulesFor(id: GameId): Record<string, unknown> {
    switch (id) {
      case 'foursies':
        return { match: options.match, tour: options.tour, devilsNumber: options.devilsNumber, tab: options.tab }
      case 'farkle':
        return { entry: options.farkleEntry, target: options.farkleTarget }
      case 'fouche':
        return { entry: options.foucheEntry, target: options.foucheTarget }
      case 'four-plus':
        return { rounds: options.rounds }
    }
  }

  /** The GameSetup to send, or why it cannot be sent yet. Blank rows are ignored. */
  function build(): BuiltSetup {
    const seated = players.value.filter((player) => player.name.trim() !== '')
    let list = seated.map((player) => player.name.trim())
    let computers = seated.flatMap((player, seat) => (player.computer ? [seat] : []))
    if (game.value === 'fouche' && list.length === 1 && computers.length === 0) {
      // Fouche's solo play: a computer opponent in the first seat, moving first.
      list = [list[0] === 'Computer' ? 'CPU' : 'Computer', list[0]]
      computers = [0]
    }
    if (list.length === 0) return { ok: false, error: 'Add at least one player' }
    if (list.length < choice.value.minPlayers) {
      return { ok: false, error: `${choice.value.title} needs at least ${choice.value.minPlayers} players` }
    }
    const seen = new Set<string>()
    for (const name of list) {
      const folded = name.toLocaleLowerCase()
      if (seen.has(folded)) return { ok: false, error: `Two players are called ${name}: give each a different name` }
      seen.add(folded)
    }
    const rules = rulesFor(game.value)
    for (const [key, value] of Object.entries(rules)) {
      if (typeof value === 'number' && (!Number.isInteger(value) || value < 0)) {
        return { ok: false, error: `${key} must be a whole number of 0 or more` }
      }
    }
    if (game.value === 'foursies' && options.tab >= list.length) rules.tab = 0
    return { ok: true, setup: { game: game.value, players: list, rules, ...(computers.length > 0 ? { computers } : {}) } }
  }

  function reset(): void {
    Object.assign(options, defaultOptions())
  }

  return { game, players, options, choice, names, addPlayer, removePlayer, movePlayer, keepTabInRange, build, reset }
})
