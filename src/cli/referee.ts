// `npm run -s referee -- replay FILE|-`: checks a game record and prints the resulting state.
// `npm run -s referee -- odds FILE|-`: checks it the same way and prints the exact odds of the
// position the record ends in (src/shared/odds), as one JSON object. `league-export URL DIR`
// writes a league's finished games as record files (docs/league.md); `dice-photo` reads dice in
// photos (src/cli/dice-photo-command.ts). The body is runRefereeCommand.
import { runRefereeCommand } from './referee-command'

void runRefereeCommand(process.argv.slice(2)).then(
  (status) => (process.exitCode = status),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`)
    process.exitCode = 1
  }
)
