// Once per test run: every temporary folder the tests make (data folders, records, captures,
// Chromium's profiles, the hosts' and devices' own) goes under one folder of the run, removed
// when the run ends, so test runs do not fill the machine's /tmp. Workers and the hosts they
// start inherit TMPDIR, which os.tmpdir() reads on each call.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const RUN_FOLDER = 'DICE_REFEREE_TEST_RUN_FOLDER'

export default function setup(): () => void {
  // Each project's setup runs this too (vitest joins the root's setups to a project's): one folder.
  if (process.env[RUN_FOLDER]) return () => {}
  const previous = process.env.TMPDIR
  const folder = mkdtempSync(join(tmpdir(), 'dice-referee-tests-'))
  process.env.TMPDIR = folder
  process.env[RUN_FOLDER] = folder
  return () => {
    delete process.env[RUN_FOLDER]
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(folder, { recursive: true, force: true })
  }
}
