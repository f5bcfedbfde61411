// The order `npm test` starts its files in. Vitest's own order runs the projects one after the
// other (e2e, integration, slow, unit) and, within one, the files that took longest in the last run
// on this checkout first, or the largest files when it has no results (a clean clone, CI): there the
// longest screenshot file started 105 s into a run and the kill -9 suite a minute later. This
// starts the known-longest files (LONGEST_FILES, in their order) first, then everything else in
// vitest's order, so the unit project's files still come last and one after the other (they share
// their worker: vitest.config.mts).
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { BaseSequencer } from 'vitest/node'
import { LONGEST_FILES } from './test-projects.mjs'

export default class LongestFirstSequencer extends BaseSequencer {
  async sort(files) {
    // A file renamed or removed would silently fall back to vitest's order.
    const gone = LONGEST_FILES.filter((file) => !existsSync(join(this.ctx.config.root, file)))
    if (gone.length > 0) throw new Error(`LONGEST_FILES (scripts/test-projects.mjs) lists test files that do not exist: ${gone.join(', ')}`)
    const sorted = await super.sort(files)
    const rank = (file) => {
      const at = LONGEST_FILES.indexOf(relative(this.ctx.config.root, file.moduleId).split('\\').join('/'))
      return at < 0 ? LONGEST_FILES.length : at
    }
    // Array.prototype.sort is stable: the files not listed keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
