import { configDefaults, defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'
import { pathAliases } from './scripts/path-aliases.mjs'
import { E2E_FOLDERS, SLOW_FILES, UNIT_FOLDERS } from './scripts/test-projects.mjs'
import LongestFirstSequencer from './scripts/test-sequencer.mjs'

// Four projects (`npm test` runs them all; `npm run test:unit` etc. one):
// - unit: pure code in one process each file, no child processes, ports or ptys: the engines,
//   records, odds and the computer player, the device protocol, the screens in happy-dom, and the
//   lint rules that keep the layers apart. The fast loop. Its files share their worker's modules
//   (isolate: false, in threads): that halves its time, so a unit test leaves nothing behind
//   (fake timers and stubbed globals restored) and mocks no module; one that must goes to
//   integration.
// - slow: pure checks too slow for the fast loop (`*.slow.test.ts`: the chance-to-win solver
//   against an independent brute-force solve and against self-play through the engine).
// - integration: the core with real parts (session and record files, the HTTP/WebSocket server,
//   devices over pseudo-terminals, the Electron shell against a stand-in, the command lines).
//   Every test file that is neither unit nor end-to-end lands here, so none is left out. Tests
//   that start the real host get its screens and bundle from the same global setup as e2e.
// - e2e: Chromium against the headless host, and packaging. The screens are the app's own
//   electron-vite build, made once per run by the global setup.
const UNIT = UNIT_FOLDERS.map((folder) => `${folder}/**`)
const E2E = E2E_FOLDERS.map((folder) => `${folder}/**`)
const TEST_FILES = ['test/**/*.test.ts']
const SLOW = SLOW_FILES
/** Builds what the real host serves and runs (out/renderer by electron-vite, out/host), once per run. */
const HOST_BUILDS = ['test/e2e/global-setup.ts']
/** Every temporary folder of a run under one, removed at its end. */
const TEMP_FOLDER = 'test/temp-folder-setup.ts'

export default defineConfig({
  plugins: [vue()],
  resolve: { alias: pathAliases() },
  test: {
    environment: 'node',
    globalSetup: [TEMP_FOLDER],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll waits on what it checks; its limit (1 s by default) only ends a wait that would
    // never end, and must hold on a machine whose cores another process keeps busy.
    expect: { poll: { timeout: 15_000 } },
    // One test file per core (vitest's default leaves one core free: on 2 cores, one file at a
    // time). Most files wait on a child process, a pseudo-terminal or Chromium, so a file per core
    // keeps both busy: the whole run took 422 s one file at a time (CI), 348 s two at a time with
    // the machine's load average near 6.
    maxWorkers: '100%',
    // The longest files first, whatever vitest knows of the last run (scripts/test-sequencer.mjs).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT.map((folder) => `${folder}/*.test.ts`), exclude: [...configDefaults.exclude, ...SLOW], pool: 'threads', isolate: false }
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
      {
        extends: true,
        test: { name: 'integration', include: TEST_FILES, exclude: [...configDefaults.exclude, ...UNIT, ...E2E, ...SLOW], globalSetup: HOST_BUILDS }
      },
      {
        extends: true,
        test: { name: 'e2e', include: E2E.map((folder) => `${folder}/*.test.ts`), globalSetup: HOST_BUILDS }
      }
    ]
  }
})
