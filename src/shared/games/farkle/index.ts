// Farkle: everything the game is, registered once in ../index.ts. Its engine and capabilities
// are the six-dice family's (../six-dice), with Farkle's scoring table and end of the game.
import { sixDiceGame } from '../six-dice/game'
import { FARKLE_DESCRIPTOR } from './descriptor'
import { FARKLE_DEFAULTS, farkleRules } from './rules'

// A solo game is one player alone against the target.
export const farkle = sixDiceGame(FARKLE_DESCRIPTOR, FARKLE_DEFAULTS, farkleRules, false)
