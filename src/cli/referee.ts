// `npm run -s referee -- replay FILE|-`: checks a game record and prints the resulting state.
// `npm run -s referee -- odds FILE|-`: checks it the same way and prints the exact odds of the
// position the record ends in (src/shared/odds), as one JSON object. The body is runReferee.
import { runReferee } from './referee-command'

process.exitCode = runReferee(process.argv.slice(2))
