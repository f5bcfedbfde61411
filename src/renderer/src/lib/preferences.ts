// Preferences of one screen (this browser or window), kept in its localStorage: they are about the
// room the screen is in (a TV's sound, a phone in daylight), not about the game.
import { reactive, watch } from 'vue'

export interface ScreenPreferences {
  /** TV: sounds for fours, busts, farkles, wins… Off by default. */
  sound: boolean
  /** TV: 0 to 1. */
  volume: number
  /** TV: spoken announcements where the system has a voice. */
  speech: boolean
  /** TV: larger type. */
  largeType: boolean
  /** TV: black and white with a yellow accent. */
  highContrast: boolean
  /** Control screens: a light theme for daylight. */
  light: boolean
}

const KEY = 'dice-referee.preferences'
const DEFAULTS: ScreenPreferences = { sound: false, volume: 0.6, speech: false, largeType: false, highContrast: false, light: false }

function load(): ScreenPreferences {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}') as Partial<ScreenPreferences>
    const volume = typeof saved.volume === 'number' && saved.volume >= 0 && saved.volume <= 1 ? saved.volume : DEFAULTS.volume
    return {
      sound: saved.sound === true,
      volume,
      speech: saved.speech === true,
      largeType: saved.largeType === true,
      highContrast: saved.highContrast === true,
      light: saved.light === true
    }
  } catch {
    return { ...DEFAULTS }
  }
}

let preferences: ScreenPreferences | null = null

export function usePreferences(): ScreenPreferences {
  if (preferences) return preferences
  const loaded = reactive(load())
  watch(
    loaded,
    (value) => {
      try {
        globalThis.localStorage?.setItem(KEY, JSON.stringify(value))
      } catch {
        // Private windows may refuse storage: the choice holds until the page closes.
      }
    },
    { deep: true }
  )
  preferences = loaded
  return loaded
}
