// The layers are kept by the tools: a forbidden import (or global) put into a file of each layer
// fails lint with the message of the layer rule it breaks, and src/shared's typecheck knows
// neither the DOM nor Node. Allowed imports in the same places pass, so the rules are not simply
// refusing everything.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

const LAYER_RULES = ['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']

let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT })
})

/** Lints `code` as if it were the file at `path` (relative to the repository root); the layer-rule messages. */
async function layerMessages(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) })
  const fatal = result.messages.filter((message) => message.fatal)
  if (fatal.length > 0) throw new Error(`${path} did not parse: ${fatal[0].message}`)
  return result.messages.filter((message) => LAYER_RULES.includes(message.ruleId ?? '')).map((message) => message.message)
}

const vue = (script: string): string => `<script setup lang="ts">\n${script}\n</script>\n\n<template><p>probe</p></template>\n`

const FORBIDDEN: [layer: string, path: string, code: string, rule: string][] = [
  ['shared', 'src/shared/games/probe.ts', `import { app } from 'electron'\nexport const name = app.name`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `import { readFileSync } from 'node:fs'\nexport const read = readFileSync`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `import { join } from 'path'\nexport const joined = join('a', 'b')`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/games/foursies/probe.ts', `import type { GameTable } from '@main/core/game/game-table'\nexport type T = GameTable`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `import { ref } from 'vue'\nexport const count = ref(0)`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `export function title(): string {\n  return document.title\n}`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `export const cwd = (): string => process.cwd()`, 'src/shared is pure TypeScript'],
  ['shared', 'src/shared/probe.ts', `export const load = (): Promise<unknown> => import('electron')`, 'src/shared is pure TypeScript'],
  ['renderer', 'src/renderer/src/stores/probe.ts', `import { ipcRenderer } from 'electron'\nexport const send = ipcRenderer.send`, 'src/renderer imports only src/shared and itself'],
  ['renderer', 'src/renderer/src/lib/probe.ts', `import { readFileSync } from 'node:fs'\nexport const read = readFileSync`, 'src/renderer imports only src/shared and itself'],
  ['renderer', 'src/renderer/src/stores/probe.ts', `import { dispatch } from '@main/core/screens/dispatch'\nexport const run = dispatch`, 'src/renderer imports only src/shared and itself'],
  ['renderer', 'src/renderer/src/table/ProbeView.vue', vue(`import { dispatch } from '@main/core/screens/dispatch'\nconsole.log(dispatch)`), 'src/renderer imports only src/shared and itself'],
  ['renderer', 'src/renderer/src/table/ProbeView.vue', vue(`import { SerialPort } from 'serialport'\nconsole.log(SerialPort)`), 'src/renderer imports only src/shared and itself'],
  ['renderer', 'src/renderer/src/history/ProbeView.vue', vue(`import { getTableApi } from '../api'\nconsole.log(getTableApi)`), 'in src/renderer only the stores (stores/) call the screen API'],
  ['renderer', 'src/renderer/src/lib/probe.ts', `import { setTableApi } from '../api/index'\nexport const set = setTableApi`, 'in src/renderer only the stores (stores/) call the screen API'],
  ['preload', 'src/preload/probe.ts', `import { readFileSync } from 'node:fs'\nexport const read = readFileSync`, 'src/preload imports only electron and src/shared'],
  ['preload', 'src/preload/probe.ts', `import { dispatch } from '../main/core/dispatch'\nexport const run = dispatch`, 'src/preload imports only electron and src/shared'],
  ['preload', 'src/preload/probe.ts', `import { ref } from 'vue'\nexport const count = ref(0)`, 'src/preload imports only electron and src/shared'],
  ['core', 'src/main/core/probe.ts', `import { app } from 'electron'\nexport const name = app.name`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/main/core/probe.ts', `import '../index'`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/main/devices/probe.ts', `export const load = (): Promise<unknown> => import('electron')`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/host/probe.ts', `import { BrowserWindow } from 'electron/main'\nexport const W = BrowserWindow`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/host/probe.ts', `import '../main/index'`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/cli/probe.ts', `export const electron: unknown = require('electron')`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['shared', 'src/shared/probe.ts', `import { createTable } from '../main/core/create-table'\nexport const create = createTable`, 'src/shared is pure TypeScript'],
  ['renderer', 'src/renderer/src/table/ProbeView.vue', vue(`import { getTableApi } from '@renderer/api'\nconsole.log(getTableApi)`), 'in src/renderer only the stores (stores/) call the screen API'],
  ['preload', 'src/preload/probe.ts', `import { createTable } from '@main/core/create-table'\nexport const create = createTable`, 'src/preload imports only electron and src/shared'],
  ['core', 'src/main/core/game/probe.ts', `import '@main/index'`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/main/league/probe.ts', `import '../index'`, 'only the Electron shell (the files directly in src/main) imports electron'],
  ['core', 'src/host/probe.ts', `import '@main/index'`, 'only the Electron shell (the files directly in src/main) imports electron']
]

const ALLOWED: [layer: string, path: string, code: string][] = [
  ['preload', 'src/preload/probe.ts', `import type { ApiMethod } from '@shared/api'\nexport type M = ApiMethod`],
  ['renderer', 'src/renderer/src/stores/probe.ts', `import { getTableApi } from '@renderer/api'\nexport const api = getTableApi`],
  ['core', 'src/host/probe.ts', `import { createTable } from '@main/core/create-table'\nexport const create = createTable`],
  ['test', 'test/main/core/game/probe.test.ts', `import { createTable } from '@main/core/create-table'\nimport { openTable } from '@test/kit/table'\nexport const both = [createTable, openTable]`],
  ['shared', 'src/shared/stats/probe.ts', `import { GAME_IDS } from '../games'\nexport const first = GAME_IDS[0]`],
  ['shared', 'src/shared/probe.ts', `export const decoded = new TextDecoder('utf-8').decode(new Uint8Array([104]))`],
  ['renderer', 'src/renderer/src/stores/probe.ts', `import { getTableApi } from '../api'\nexport const api = getTableApi`],
  ['renderer', 'src/renderer/src/history/ProbeView.vue', vue(`import type { HistoryEntry } from '@shared/api'\nconst entries: HistoryEntry[] = []\nconsole.log(entries)`)],
  ['renderer', 'src/renderer/src/stores/probe.ts', `import { ref } from 'vue'\nimport type { TableState } from '@shared/api'\nexport const state = ref<TableState | null>(null)\nexport const title = (): string => document.title`],
  ['preload', 'src/preload/probe.ts', `import { ipcRenderer } from 'electron'\nimport type { ApiMethod } from '../shared/api'\nexport const call = (method: ApiMethod): Promise<unknown> => ipcRenderer.invoke('table', method)`],
  ['shell', 'src/main/probe.ts', `import { app } from 'electron'\nimport { TableSession } from './core/table-session'\nexport const both = [app, TableSession]`],
  ['core', 'src/host/probe.ts', `import { TableSession } from '../main/core/table-session'\nimport { join } from 'node:path'\nexport const both = [TableSession, join]`],
  ['core', 'src/main/core/probe.ts', `import { Devices } from '../devices/devices'\nexport const D = Devices`]
]

describe('lint keeps the layers apart', () => {
  it.each(FORBIDDEN)('%s: %s refuses %j', async (_layer, path, code, rule) => {
    const messages = await layerMessages(path, code)
    expect(messages.length).toBeGreaterThan(0)
    for (const message of messages) expect(message).toContain(`Layer rule: ${rule.startsWith('only') ? 'the table core' : rule}`)
    expect(messages.join('\n')).toContain(rule)
  })

  it.each(ALLOWED)('%s: %s may %j', async (_layer, path, code) => {
    expect(await layerMessages(path, code)).toEqual([])
  })
})

describe('lint names what is two folders away by its path alias', () => {
  const PATH_RULE = 'Path rule: an import that climbs two folders or more names its target by its path alias'
  it.each([
    ['src/main/core/game/probe.ts', `import type { Game } from '../../../shared/games/types'\nexport type G = Game`],
    ['src/renderer/src/table/ProbeView.vue', vue(`import type { TableState } from '../../../shared/api'\nconst state: TableState | null = null\nconsole.log(state)`)],
    ['test/main/core/game/probe.test.ts', `import { openTable } from '../../../kit/table'\nexport const open = openTable`],
    ['bench/probe.ts', `import { createTable } from '../../src/main/core/create-table'\nexport const create = createTable`]
  ])('%s refuses a path that climbs two folders', async (path, code) => {
    expect(await layerMessages(path, code)).toEqual([expect.stringContaining(PATH_RULE)])
  })
})

describe('unit tests mock no module (they share their worker’s modules)', () => {
  const UNIT_RULE = 'Unit rule: unit tests share their modules and mock none'
  it.each([
    ['test/renderer/camera/probe.test.ts', `import { vi } from 'vitest'\nvi.mock('@renderer/camera/camera-runner', () => ({}))`],
    ['test/shared/probe.test.ts', `import { vi } from 'vitest'\nconst fake = vi.hoisted(() => ({ count: 0 }))\nexport const count = fake.count`]
  ])('%s refuses a module mock', async (path, code) => {
    expect(await layerMessages(path, code)).toEqual([expect.stringContaining(UNIT_RULE)])
  })

  it('allows it in an integration test, and a spy in a unit test', async () => {
    expect(await layerMessages('test/main/core/probe.test.ts', `import { vi } from 'vitest'\nvi.mock('node:fs', () => ({}))`)).toEqual([])
    expect(await layerMessages('test/shared/probe.test.ts', `import { vi } from 'vitest'\nexport const spy = vi.fn()`)).toEqual([])
  })
})

describe("src/shared's typecheck (tsconfig.shared.json) has neither the DOM nor Node", () => {
  const PROBES = {
    forbidden: `export const a = document.title\nexport const b = window.innerWidth\nexport const c = Buffer.from('x')\nexport const d = process.pid\n`,
    allowed: `export const a = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([104]))\nexport const b = [1, 2].at(-1)\n`
  }
  let errors: Record<keyof typeof PROBES, string[]>

  beforeAll(() => {
    // One program, with the options and global declarations of tsconfig.shared.json, for both probes.
    const config = ts.readConfigFile(join(ROOT, 'tsconfig.shared.json'), ts.sys.readFile)
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
    const dir = mkdtempSync(join(tmpdir(), 'shared-types-'))
    const files = Object.fromEntries(Object.keys(PROBES).map((name) => [name, join(dir, `${name}.ts`)]))
    for (const [name, code] of Object.entries(PROBES)) writeFileSync(files[name], code)
    const globals = parsed.fileNames.filter((name) => name.endsWith('.d.ts'))
    const program = ts.createProgram([...Object.values(files), ...globals], { ...parsed.options, composite: false, noEmit: true })
    const messagesOf = (file: string): string[] =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
    errors = { forbidden: messagesOf(files.forbidden), allowed: messagesOf(files.allowed) }
  })

  it('refuses document, window, Buffer and process', () => {
    for (const name of ['document', 'window', 'Buffer', 'process']) expect(errors.forbidden.join('\n')).toContain(`'${name}'`)
  })

  it('knows ECMAScript and the TextDecoder every runtime has', () => {
    expect(errors.allowed).toEqual([])
  })
})
