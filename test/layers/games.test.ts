// Each game in one folder (README, "Adding a game"): what a game is lives in
// src/shared/games/<game>/ and the rest of the code asks the registry for it. These checks read
// the sources: no game-name comparison and no cast to a game's state outside the game folders,
// lint refusing such a comparison (eslint.config.mjs, "Game rule:"), and the games importing
// nothing of the app around them, so the registry is free of import circles.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'
import { GAME_IDS } from '@shared/games'
import { ROOT } from '@test/kit/root'

const GAMES_DIR = join('src', 'shared', 'games')

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|vue|mjs|cjs)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
}

/** In a game's own folder (or a family folder such as six-dice), not in the registry or the helpers beside it. */
const inGameFolder = (file: string): boolean => file.startsWith(GAMES_DIR + sep) && relative(GAMES_DIR, file).includes(sep)

const names = GAME_IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|')
const COMPARISON = new RegExp(
  String.raw`[!=]==?\s*(['"\`])(${names})\1|(['"\`])(${names})\3\s*[!=]==?|\bcase\s+(['"\`])(${names})\5\s*:`,
  'g'
)

/** Every `file:line: text` of `pattern` in the sources outside the game folders. */
function outsideGameFolders(pattern: RegExp): string[] {
  const found: string[] = []
  for (const file of filesUnder('src').filter((name) => !inGameFolder(name))) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (new RegExp(pattern.source).test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`)
      })
  }
  return found
}

describe('each game in one folder', () => {
  it('no game-name comparison outside the game folders', () => {
    expect(COMPARISON.test(`if (game === 'farkle') x()`)).toBe(true)
    expect(outsideGameFolders(COMPARISON)).toEqual([])
  })

  it("no cast to a game's state outside the game folders", () => {
    const stateTypes = filesUnder(GAMES_DIR).flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/export (?:interface|type) (\w+State)\b/g)].map((match) => match[1])
    )
    expect(stateTypes).toEqual(expect.arrayContaining(['FoursiesState', 'SixDiceState', 'FourPlusState']))
    expect(outsideGameFolders(new RegExp(String.raw`\bas\s+(${stateTypes.join('|')})\b`))).toEqual([])
  })

  it('the games import nothing of the app around them: only each other, the dice helpers, the keypad keys and the schema library', () => {
    const allowed = ['src/shared/dice.ts', 'src/shared/keypad-keys.ts'].map(normalize)
    // The schema library is pure: a game says with it the shape of its seats' facts (the statistics cache checks them).
    const packages = ['valibot']
    const registry = join(GAMES_DIR, 'index.ts')
    const wrong: string[] = []
    for (const file of filesUnder(GAMES_DIR)) {
      for (const [, spec] of readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const byAlias = spec.startsWith('@shared/')
        if (!spec.startsWith('.') && !byAlias) {
          if (!packages.includes(spec)) wrong.push(`${file}: ${spec}`)
          continue
        }
        const target = normalize(byAlias ? join('src', 'shared', spec.slice('@shared/'.length)) : join(dirname(file), spec))
        const resolved = [`${target}.ts`, join(target, 'index.ts'), target].find((candidate) => filesUnder(dirname(candidate) || '.').includes(candidate))
        const inside = resolved !== undefined && resolved.startsWith(GAMES_DIR + sep) && resolved !== registry
        if (!inside && !(resolved !== undefined && allowed.includes(resolved))) wrong.push(`${file}: ${spec}`)
      }
    }
    expect(wrong).toEqual([])
  })
})

describe('lint refuses a game-name comparison outside the game folders', () => {
  let eslint: ESLint
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT })
  })
  const gameRule = async (path: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) })
    expect(result.messages.filter((message) => message.fatal)).toEqual([])
    return result.messages.map((message) => message.message).filter((message) => message.startsWith('Game rule:'))
  }
  const compare = (id: string): string => `export const isIt = (game: string): boolean => game === '${id}'\n`
  const vue = (id: string): string =>
    `<script setup lang="ts">\nconst props = defineProps<{ game: string }>()\n</script>\n\n<template><p v-if="props.game === '${id}'">probe</p></template>\n`

  it.each([
    ['src/main/core/probe.ts', compare('farkle')],
    ['src/main/probe.ts', `export const isIt = (game: string): boolean => 'fouche' !== game\n`],
    ['src/shared/stats/probe.ts', `export function seats(game: string): number {\n  switch (game) {\n    case 'four-plus':\n      return 2\n  }\n  return 1\n}\n`],
    ['src/shared/games/probe.ts', compare('foursies')],
    ['src/preload/probe.ts', compare('foursies')],
    ['src/renderer/src/components/ProbeView.vue', vue('fouche')]
  ])('%s: refused', async (path, code) => {
    expect(await gameRule(path, code)).toHaveLength(1)
  })

  it.each([
    ['src/shared/games/farkle/probe.ts', compare('farkle')],
    ['src/shared/games/six-dice/probe.ts', compare('fouche')],
    ['src/main/core/probe.ts', `export const isBank = (kind: string): boolean => kind === 'bank'\n`]
  ])('%s: allowed', async (path, code) => {
    expect(await gameRule(path, code)).toEqual([])
  })
})
