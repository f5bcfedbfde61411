// The path aliases (`@shared/…`, `@main/…`) for Vite and Vitest, read from tsconfig.paths.json:
// the one place they are said. TypeScript, esbuild and tsx read that file themselves (each
// tsconfig extends it).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Vite's `resolve.alias` entries: `@shared/x` → `<root>/src/shared/x`. */
export function pathAliases() {
  const { paths } = JSON.parse(readFileSync(join(root, 'tsconfig.paths.json'), 'utf8')).compilerOptions
  return Object.entries(paths).map(([alias, [target]]) => ({
    find: new RegExp(`^${alias.replace(/\/\*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`),
    replacement: `${join(root, target.replace(/\/\*$/, ''))}/`
  }))
}
