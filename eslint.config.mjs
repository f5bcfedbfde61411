import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import { existsSync, readdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { UNIT_FOLDERS } from './scripts/test-projects.mjs'

// The layers (README, "How the code is laid out"), enforced here with ESLint's own
// no-restricted-imports / no-restricted-globals / no-restricted-syntax. Every message starts with
// "Layer rule:" and names the rule broken. Other layers are recognised by their path alias
// (`@main/...`, `@renderer/...`: tsconfig.paths.json) or the folder a relative import climbs into
// (`../main/...`); src/shared's tsconfig (no DOM lib, no @types/node) backs the shared rule up in
// the typecheck. The path rule: an import that climbs two folders or more names its target by
// alias instead (`@shared/api`, not `../../../shared/api`), everywhere.
const LAYER = {
  shared:
    'Layer rule: src/shared is pure TypeScript (no Node, Electron, DOM or other-layer imports): it runs unchanged in the main process, the screens and the command line.',
  renderer:
    'Layer rule: src/renderer imports only src/shared and itself: the screens run in a sandboxed page and reach the table through the screen API.',
  stores:
    'Layer rule: in src/renderer only the stores (stores/) call the screen API (api/): a screen or helper asks a store, so that each request is made, and its answer kept, in one place.',
  preload: 'Layer rule: src/preload imports only electron and src/shared (types and pure modules).',
  core:
    'Layer rule: the table core (src/main/core, src/main/devices, src/host, src/cli) also runs under plain Node without Electron: only the Electron shell (the files directly in src/main) imports electron.'
}
const NODE_BUILTIN = `^(node:.*|(${builtinModules.filter((name) => !name.startsWith('_')).join('|')})(/.*)?)$`
const ELECTRON = '^electron(/.*)?$'
/** An import of one of these top folders of src/: by alias, or by a relative path that climbs into it. */
const intoLayers = (...layers) => `^((\\.\\./)+(src/)?(${layers.join('|')})|@(${layers.join('|')}))(/.*)?$`
const restrict = (message, regexes) => regexes.map((regex) => ({ regex, message }))
const PATH_RULE = 'Path rule: an import that climbs two folders or more names its target by its path alias (@shared/…, @main/…, @renderer/…, @test/…: tsconfig.paths.json).'
/** The no-restricted-imports rule of a set of files: their layer's patterns, and the path rule every file keeps. */
const importRule = (...patterns) => ['error', { patterns: [...patterns.flat(), { regex: '^(\\.\\./){2,}', message: PATH_RULE }] }]
/** Dynamic import() and require() of what a layer may not import (no-restricted-imports sees only static imports). */
const DYNAMIC_ELECTRON = 'electron($|[^\\w-])' // esquery's regex literals cannot hold a slash
const restrictDynamic = (message, regex) => [
  { selector: `ImportExpression[source.value=/${regex}/]`, message },
  { selector: `CallExpression[callee.name='require'][arguments.0.value=/${regex}/]`, message }
]
// Each game in one folder (README, "Adding a game"): what a game is lives in
// src/shared/games/<game>/, and the rest of the code asks the registry for it. A comparison with
// a game's name (`game === 'farkle'`, `case 'fouche':`) anywhere else is refused, in scripts and
// in Vue templates. The games are the folders of src/shared/games that hold an index.ts (the
// registry checks that each game's folder is named by its id), so a new game is covered as it
// is added.
const GAMES_DIR = new URL('./src/shared/games/', import.meta.url)
const GAME_IDS = readdirSync(GAMES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/index.ts`, GAMES_DIR)))
  .map((entry) => entry.name)
const GAME_RULE =
  "Game rule: no game-name comparison outside the game's own folder (src/shared/games/<game>/): ask the registry (src/shared/games/index.ts) for what the game does instead."
const GAME_NAME = `/^(${GAME_IDS.join('|')})$/`
const GAME_NAME_SYNTAX = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/][right.value=${GAME_NAME}]`, message: GAME_RULE },
  { selector: `BinaryExpression[operator=/^[!=]==?$/][left.value=${GAME_NAME}]`, message: GAME_RULE },
  { selector: `SwitchCase[test.value=${GAME_NAME}]`, message: GAME_RULE }
]
/** One no-restricted-syntax rule per file: a later config object replaces an earlier one's, so each layer's list ends with the game rule. */
const syntaxRule = (...selectors) => ['error', ...selectors, ...GAME_NAME_SYNTAX]

const DOM_AND_NODE_GLOBALS = [
  'window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'fetch', 'XMLHttpRequest', 'WebSocket',
  'HTMLElement', 'Element', 'Node', 'Event', 'CustomEvent', 'requestAnimationFrame', 'alert', 'confirm',
  'process', 'Buffer', 'require', 'module', 'exports', '__dirname', '__filename', 'global', 'setImmediate'
]

const RENDERER_FORBIDDEN = [NODE_BUILTIN, ELECTRON, '^(ws|serialport)(/.*)?$', '^@serialport/', intoLayers('main', 'preload', 'host', 'cli')]

const layerRules = [
  {
    // Every file keeps the path rule; the layers below add their own patterns to it.
    rules: { 'no-restricted-imports': importRule() }
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': importRule(restrict(LAYER.shared, [NODE_BUILTIN, ELECTRON, '^(vue|pinia|ws|serialport|qrcode)(/.*)?$', '^@(vue|serialport)/', intoLayers('main', 'preload', 'renderer', 'host', 'cli')])),
      'no-restricted-globals': ['error', ...DOM_AND_NODE_GLOBALS.map((name) => ({ name, message: LAYER.shared }))],
      'no-restricted-syntax': syntaxRule(...restrictDynamic(LAYER.shared, `^(node:|${DYNAMIC_ELECTRON})`))
    }
  },
  {
    // A game's own folder may compare its names (a family folder such as six-dice: its members').
    files: ['src/shared/games/*/**'],
    rules: { 'no-restricted-syntax': ['error', ...restrictDynamic(LAYER.shared, `^(node:|${DYNAMIC_ELECTRON})`)] }
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': importRule(restrict(LAYER.renderer, RENDERER_FORBIDDEN)),
      'no-restricted-syntax': syntaxRule(...restrictDynamic(LAYER.renderer, `^(node:|${DYNAMIC_ELECTRON})`)),
      'vue/no-restricted-syntax': ['error', ...GAME_NAME_SYNTAX]
    }
  },
  {
    // A later entry replaces the rule's options for these files, so it repeats the renderer's.
    files: ['src/renderer/**'],
    ignores: ['src/renderer/src/stores/**', 'src/renderer/src/api/**'],
    rules: {
      'no-restricted-imports': importRule(restrict(LAYER.renderer, RENDERER_FORBIDDEN), restrict(LAYER.stores, ['^((\\.{1,2}/)+|@renderer/)api(/.*)?$']))
    }
  },
  {
    files: ['src/preload/**'],
    rules: {
      // Bare imports: electron, and the validation library of the screen-API table (pure, in src/shared).
      'no-restricted-imports': importRule(restrict(LAYER.preload, ['^(?!electron$|valibot$|\\.|@shared/)', intoLayers('main', 'renderer', 'host', 'cli')])),
      'no-restricted-syntax': syntaxRule()
    }
  },
  {
    // The Electron shell: the files directly in src/main.
    files: ['src/main/*'],
    rules: { 'no-restricted-syntax': syntaxRule() }
  },
  {
    files: ['src/main/core/*', 'src/main/devices/*', 'src/main/league/*'],
    rules: {
      // `../index` (`@main/index`) and any other file directly in src/main is the Electron shell.
      'no-restricted-imports': importRule(restrict(LAYER.core, [ELECTRON, '^(\\.\\.|@main)/[^/]+$', intoLayers('renderer', 'preload')])),
      'no-restricted-syntax': syntaxRule(...restrictDynamic(LAYER.core, `^${DYNAMIC_ELECTRON}`))
    }
  },
  {
    files: ['src/main/core/*/**'],
    rules: {
      // From a folder of the core, `@main/index` is the Electron shell.
      'no-restricted-imports': importRule(restrict(LAYER.core, [ELECTRON, '^(\\.\\./\\.\\.|@main)/[^/]+$', intoLayers('renderer', 'preload')])),
      'no-restricted-syntax': syntaxRule(...restrictDynamic(LAYER.core, `^${DYNAMIC_ELECTRON}`))
    }
  },
  {
    files: ['src/host/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': importRule(restrict(LAYER.core, [ELECTRON, '^((\\.\\./)+(src/)?|@)main(/(?!core/|devices/)[^/]+)?$', intoLayers('renderer', 'preload')])),
      'no-restricted-syntax': syntaxRule(...restrictDynamic(LAYER.core, `^${DYNAMIC_ELECTRON}`))
    }
  }
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'firmware-protocol/c/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } }
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-undef': 'off',
      'vue/multi-word-component-names': 'error',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/attributes-order': 'off'
    }
  },
  ...layerRules,
  {
    // A unit test shares its worker's modules with the other unit tests (vitest.config.mts): a
    // mocked module would leak into them, or come too late, depending on the order files run in.
    files: UNIT_FOLDERS.map((folder) => `${folder}/**`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|hoisted)$/]",
          message: 'Unit rule: unit tests share their modules and mock none: stand in through the code’s own seam (setTableApi, setCameraAccess) or move the test to integration'
        }
      ]
    }
  },
  {
    files: ['**/*.cjs', 'scripts/**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  }
)
