// The docs a clone carries stand on their own: every relative link in the README and docs/ leads
// to a file (and heading) of the repository, none leads outside it (a clone has no ../shared),
// and the rules readings the rules pages point to exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

describe('the docs in the repository', () => {
  it('link only to files and headings the repository has', () => {
    const broken: string[] = []
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue // a web address
        const [path, anchor] = target.split('#')
        const file = path ? resolve(ROOT, dirname(page), path) : join(ROOT, page)
        if (relative(ROOT, file).startsWith('..') || !existsSync(file)) {
          broken.push(`${page}: ${target}`)
          continue
        }
        if (anchor && file.endsWith('.md')) {
          const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((match) => anchorOf(match[1]))
          if (!headings.includes(anchor)) broken.push(`${page}: ${target} (no such heading)`)
        }
      }
      if (text.includes('../shared')) broken.push(`${page}: mentions ../shared`)
    }
    expect(broken).toEqual([])
  })

  it('has the record format and every game’s rules page, each pointing to the readings', () => {
    expect(existsSync(join(ROOT, 'docs', 'record-format.md'))).toBe(true)
    for (const game of ['foursies', 'farkle', 'fouche', 'four-plus']) {
      expect(readFileSync(join(ROOT, 'docs', 'rules', `${game}.md`), 'utf8'), game).toContain('](../rules-readings.md#')
    }
  })
})
