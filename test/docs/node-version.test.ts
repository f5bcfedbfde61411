// The Node requirement is one fact told the same way everywhere: package.json's engines is met by
// what .nvmrc installs, and the lowest Node each branch of engines allows meets the engines of
// every package in the lock file (so `npm ci` prints no EBADENGINE on any Node that engines
// accepts); the README and CI say the same.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
const nvmrc = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()

describe('the Node requirement', () => {
  it('.nvmrc names a Node line that engines accepts', () => {
    expect(semver.validRange(nvmrc)).not.toBeNull()
    expect(semver.intersects(nvmrc, engines)).toBe(true)
    // Each version engines accepts on that line is one npm ci is clean on (below).
    expect(semver.satisfies(semver.minVersion(`${engines.split('||')[0]}`)!.version, nvmrc)).toBe(true)
  })

  it('the lowest Node of each branch of engines meets every locked package’s engines', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> }
    const lowest = engines.split('||').map((branch) => semver.minVersion(branch.trim())!.version)
    expect(lowest).toEqual(['22.22.2', '24.15.0'])
    const unmet: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      if (!path || !wanted) continue
      for (const version of lowest) if (!semver.satisfies(version, wanted)) unmet.push(`${path} wants node ${wanted}, not ${version}`)
    }
    expect(unmet).toEqual([])
  })

  it('the README and CI say the same', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node ${lowestOf(engines)} or later`)
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    expect(ci).toContain('require("./package.json").engines.node')
    expect(ci).toContain('node@$(cat .nvmrc)')
  })
})

function lowestOf(range: string): string {
  return semver.minVersion(range)!.version
}
