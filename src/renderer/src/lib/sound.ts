// Short sounds for the TV, made in code with WebAudio (no files, no network), and spoken
// announcements with the system's speech synthesis where it has a voice.
import type { LogEntry } from '@shared/api'
import { GAMES, isGameId } from '@shared/games'
import type { SoundKind } from '@shared/games/types'

export type { SoundKind }

// The loudest sound of a line wins: a foursies that also scores fours sounds as a foursies.
const LOUDEST_FIRST: readonly SoundKind[] = ['win', 'foursies', 'hotDice', 'farkle', 'bust', 'four']

/** The sound for the log entries of one new line, if any: which events make which sound is the game's (Foursies' `score` is a four; 4-PLU$'s scores are not). */
export function soundFor(entries: readonly LogEntry[], game: string): SoundKind | null {
  if (!isGameId(game)) return null
  const sounds = GAMES[game].screens.sounds
  const kinds = new Set(entries.map((entry) => entry.kind))
  return LOUDEST_FIRST.find((sound) => sounds[sound]?.some((kind) => kinds.has(kind))) ?? null
}

interface Note {
  /** Hz */
  frequency: number
  /** Seconds from the start. */
  at: number
  length: number
  type?: OscillatorType
}

/** Each sound as a few notes: rising for good news, falling for bad. */
export const TUNES: Record<SoundKind, Note[]> = {
  four: [{ frequency: 880, at: 0, length: 0.12 }],
  bust: [
    { frequency: 330, at: 0, length: 0.16, type: 'sawtooth' },
    { frequency: 220, at: 0.16, length: 0.3, type: 'sawtooth' }
  ],
  farkle: [
    { frequency: 392, at: 0, length: 0.14, type: 'square' },
    { frequency: 311, at: 0.14, length: 0.14, type: 'square' },
    { frequency: 233, at: 0.28, length: 0.32, type: 'square' }
  ],
  foursies: [
    { frequency: 523, at: 0, length: 0.1 },
    { frequency: 659, at: 0.1, length: 0.1 },
    { frequency: 784, at: 0.2, length: 0.1 },
    { frequency: 1047, at: 0.3, length: 0.3 }
  ],
  hotDice: [
    { frequency: 988, at: 0, length: 0.08, type: 'triangle' },
    { frequency: 1319, at: 0.08, length: 0.08, type: 'triangle' },
    { frequency: 988, at: 0.16, length: 0.08, type: 'triangle' },
    { frequency: 1319, at: 0.24, length: 0.2, type: 'triangle' }
  ],
  win: [
    { frequency: 523, at: 0, length: 0.15 },
    { frequency: 659, at: 0.15, length: 0.15 },
    { frequency: 784, at: 0.3, length: 0.15 },
    { frequency: 1047, at: 0.45, length: 0.5 }
  ]
}

let context: AudioContext | null = null

/** Plays a sound at a volume from 0 to 1; does nothing where the browser has no WebAudio. */
export function playSound(kind: SoundKind, volume: number): boolean {
  const AudioContextClass = globalThis.AudioContext
  if (!AudioContextClass) return false
  context ??= new AudioContextClass()
  if (context.state === 'suspended') void context.resume()
  const start = context.currentTime + 0.02
  for (const note of TUNES[kind]) {
    const oscillator = context.createOscillator()
    const gain = context.createGain()
    oscillator.type = note.type ?? 'sine'
    oscillator.frequency.value = note.frequency
    // A quick attack and decay: no clicks.
    gain.gain.setValueAtTime(0, start + note.at)
    gain.gain.linearRampToValueAtTime(0.3 * volume, start + note.at + 0.01)
    gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + note.length)
    oscillator.connect(gain).connect(context.destination)
    oscillator.start(start + note.at)
    oscillator.stop(start + note.at + note.length + 0.02)
  }
  return true
}

/** Says a short text with the system's voice, if it has one. */
export function speak(text: string, volume: number): boolean {
  const synthesis = globalThis.speechSynthesis
  if (!synthesis || typeof SpeechSynthesisUtterance === 'undefined' || synthesis.getVoices().length === 0) return false
  const utterance = new SpeechSynthesisUtterance(text)
  utterance.volume = volume
  synthesis.cancel()
  synthesis.speak(utterance)
  return true
}
