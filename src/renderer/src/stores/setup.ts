import { defineStore } from 'pinia'
import { computed, reactive, ref } from 'vue'
import type { GameSetup } from '@shared/api-methods'
import { optionDefaults, type NumberOption, type OptionDescriptor, type OptionValue } from '@shared/games/options'
import { GAME_IDS, GAMES, type GameId } from '@shared/games'

export interface GameChoice {
  id: GameId
  title: string
  blurb: string
  minPlayers: number
}

/** The games on offer, as each game's folder describes it (src/shared/games/<game>/descriptor.ts). */
export const GAME_CHOICES: GameChoice[] = GAME_IDS.map((id) => ({
  id,
  title: GAMES[id].title,
  blurb: GAMES[id].blurb,
  minPlayers: GAMES[id].minPlayers
}))

/** Each game's option values, keyed as in a header's `rules` (see src/shared/games/options.ts). */
export type SetupOptions = Record<GameId, Record<string, OptionValue>>

export function defaultOptions(): SetupOptions {
  return Object.fromEntries(GAME_IDS.map((id) => [id, optionDefaults(GAMES[id].options)])) as SetupOptions
}

/** An option's name in a sentence: its label without the note in brackets ("Entry minimum (0 = off)"). */
function optionName(option: OptionDescriptor): string {
  return option.label.replace(/\s*\(.*\)$/, '')
}

/** Why a number option's value cannot be sent, in the words of the form; null when it can. */
export function numberProblem(option: NumberOption, value: OptionValue | undefined): string | null {
  // Beyond this a number field no longer holds a whole number exactly (the rules refuse it too).
  if (typeof value === 'number' && value > Number.MAX_SAFE_INTEGER) {
    return `${optionName(option)} must be at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}`
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < option.min) {
    return `${optionName(option)} must be a whole number, ${option.min} or more`
  }
  return null
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
  const game = ref<GameId>(GAME_IDS[0])
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

  /** A seat option (Foursies' tab) stays on a seat that exists. */
  function keepTabInRange(): void {
    const count = Math.max(1, names.value.length)
    for (const id of GAME_IDS) {
      for (const option of GAMES[id].options) {
        if (option.kind === 'seat' && Number(options[id][option.key]) >= count) options[id][option.key] = 0
      }
    }
  }

  /** The GameSetup to send, or why it cannot be sent yet. Blank rows are ignored. */
  function build(): BuiltSetup {
    const seated = players.value.filter((player) => player.name.trim() !== '')
    let list = seated.map((player) => player.name.trim())
    let computers = seated.flatMap((player, seat) => (player.computer ? [seat] : []))
    if (GAMES[game.value].screens.soloOpponent && list.length === 1 && computers.length === 0) {
      // Solo play against the computer (Fouche): a computer opponent in the first seat, moving first.
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
    const rules: Record<string, OptionValue> = { ...options[game.value] }
    for (const option of GAMES[game.value].options) {
      if (option.kind === 'number') {
        const problem = numberProblem(option, rules[option.key])
        if (problem) return { ok: false, error: problem }
      }
      if (option.kind === 'seat' && Number(rules[option.key]) >= list.length) rules[option.key] = 0
    }
    return { ok: true, setup: { game: game.value, players: list, rules, ...(computers.length > 0 ? { computers } : {}) } }
  }

  function reset(): void {
    Object.assign(options, defaultOptions())
  }

  return { game, players, options, choice, names, addPlayer, removePlayer, movePlayer, keepTabInRange, build, reset }
})
