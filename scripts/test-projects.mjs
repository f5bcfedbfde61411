// Where each vitest project's tests are (vitest.config.mts), said once: the lint rule that keeps
// unit tests from mocking modules (eslint.config.mjs) reads the same folders.
/** Pure code, the screens in happy-dom and the layer rules: the fast loop. */
export const UNIT_FOLDERS = ['test/shared', 'test/renderer', 'test/layers']
/** Chromium against the headless host, and packaging. */
export const E2E_FOLDERS = ['test/e2e', 'test/packaging']
/** Pure checks too slow for the fast loop. */
export const SLOW_FILES = ['test/**/*.slow.test.ts']
/**
 * The longest test files, longest first: `npm test` starts them before any other (./test-sequencer.mjs),
 * so that none of them starts late and runs alone at the end. From bench/test-timeline.mjs's figures
 * (bench/README.md, "Test time"); a file not listed runs after these, longest known first.
 */
export const LONGEST_FILES = [
  'test/faults/kill.test.ts',
  'test/e2e/screenshots.test.ts',
  'test/e2e/screenshots-tv.test.ts',
  'test/packaging/dist.test.ts',
  'test/main/league/league.test.ts',
  'test/vision/reader.test.ts',
  'test/e2e/phone.test.ts',
  'test/cli/command-lines.test.ts',
  'test/shared/games/six-dice/win-solver.slow.test.ts',
  'test/faults/kill-edits.test.ts',
  'test/e2e/camera.test.ts',
  'test/e2e/screens.test.ts',
  'test/host/builds.test.ts',
  'test/e2e/league.test.ts',
  'test/e2e/table.test.ts'
]
