// Where each vitest project's tests are (vitest.config.mts), said once: the lint rule that keeps
// unit tests from mocking modules (eslint.config.mjs) reads the same folders.
/** Pure code, the screens in happy-dom and the layer rules: the fast loop. */
export const UNIT_FOLDERS = ['test/shared', 'test/renderer', 'test/layers']
/** Chromium against the headless host, and packaging. */
export const E2E_FOLDERS = ['test/e2e', 'test/packaging']
/** Pure checks too slow for the fast loop. */
export const SLOW_FILES = ['test/**/*.slow.test.ts']
