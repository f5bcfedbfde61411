// Fouche: everything the game is, registered once in ../index.ts. Its engine and capabilities
// are the six-dice family's (../six-dice), with Fouche's scoring table and end of the game.
import { sixDiceGame } from '../six-dice/game'
import { FOUCHE_DESCRIPTOR } from './descriptor'
import { FOUCHE_DEFAULTS, foucheRules } from './rules'

// Fouche's solo play: a computer opponent in the first seat, moving first.
export const fouche = sixDiceGame(FOUCHE_DESCRIPTOR, FOUCHE_DEFAULTS, foucheRules, true)
