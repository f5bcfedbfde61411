// Where the repository is, for tests that read its files or run its commands: said once here, so
// a test file can move in the tree without counting `..`s.
import { join } from 'node:path'

export const ROOT = join(__dirname, '..', '..')

/** A file or folder of the repository, by its path from the root (`repoPath('src', 'cli', 'referee.ts')`). */
export const repoPath = (...parts: string[]): string => join(ROOT, ...parts)
