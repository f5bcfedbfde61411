// The vote over a few still frames of one throw.
//
// Hand-written: when to trust a reading is this project's own rule. Dice are matched across
// frames by where they are (boxes' centres closer than half a box); a die's value is the one most
// frames read, and its confidence is the mean confidence of the frames that read that value times
// the share of frames that did. A die read differently in two frames, or missed in some, ends up
// below CONFIDENT and goes to the keypad; a die half the frames call unreadable (cocked) stays
// unreadable. Dice seen in fewer than half the frames are dropped (a hand passing, a reflection).
import type { Box, DieReading, DieValue, FrameReading, UnreadableReason } from './types'

const centre = (box: Box): [number, number] => [box[0] + box[2] / 2, box[1] + box[3] / 2]

export function voteReadings(frames: FrameReading[]): FrameReading {
  if (frames.length === 0) return { dice: [], tray: null }
  const tracks: DieReading[][] = []
  for (const frame of frames) {
    const taken = new Set<number>()
    for (const die of frame.dice) {
      const [x, y] = centre(die.box)
      let best = -1
      let bestDistance = Infinity
      tracks.forEach((track, index) => {
        if (taken.has(index)) return
        const [tx, ty] = centre(track[0].box)
        const distance = Math.hypot(x - tx, y - ty)
        if (distance < Math.max(die.box[2], die.box[3]) / 2 && distance < bestDistance) {
          best = index
          bestDistance = distance
        }
      })
      if (best >= 0) {
        tracks[best].push(die)
        taken.add(best)
      } else {
        tracks.push([die])
        taken.add(tracks.length - 1)
      }
    }
  }
  const dice: DieReading[] = []
  for (const track of tracks) {
    if (track.length * 2 < frames.length) continue
    const counts = new Map<DieValue | null, DieReading[]>()
    for (const die of track) counts.set(die.value, [...(counts.get(die.value) ?? []), die])
    let winner: DieValue | null = null
    let votes: DieReading[] = []
    for (const [value, readings] of counts) if (readings.length > votes.length || (readings.length === votes.length && value === null)) [winner, votes] = [value, readings]
    const box = track[track.length - 1].box
    if (winner === null) {
      const reason = votes.find((die) => die.unreadable)?.unreadable ?? 'frames disagree'
      dice.push({ value: null, confidence: 0, box, unreadable: reason as UnreadableReason })
      continue
    }
    const mean = votes.reduce((sum, die) => sum + die.confidence, 0) / votes.length
    dice.push({ value: winner, confidence: Math.round(mean * (votes.length / frames.length) * 1000) / 1000, box })
  }
  return { dice, tray: frames[frames.length - 1].tray }
}
