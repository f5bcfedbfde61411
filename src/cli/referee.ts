// `npm run -s referee -- replay FILE|-`: checks a game record and prints the resulting state.
// `npm run -s referee -- odds FILE|-`: checks it the same way and prints the exact odds of the
// position the record ends in (src/shared/odds), as one JSON object. `dice-photo` reads dice in
// photos (src/cli/dice-photo-command.ts). The body is runRefereeCommand.
import { runRefereeCommand } from './referee-command'

const status = runRefereeCommand(process.argv.slice(2), async () => (await import('../shared/vision/load-opencv')).loadOpenCv())
if (typeof status === 'number') process.exitCode = status
else
  void status.then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      process.stderr.write(`${error.stack ?? error.message}\n`)
      process.exitCode = 1
    }
  )
