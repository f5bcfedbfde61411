import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import { indexHtmlPolicyTag } from './src/shared/content-security-policy'
import { pathAliases } from './scripts/path-aliases.mjs'

/**
 * The built page names its assets from the root (/assets/…), not relative to itself (./assets/…,
 * which electron-vite sets for every production build, overriding the `base` option): a screen's
 * address can be nested (/players/Ann), and both servers serve the build at their root
 * (http://host:port/, app://dice-referee/). This plugin's config runs after electron-vite's.
 */
const assetsFromRoot = { name: 'assets-from-root', config: () => ({ base: '/' }) }

export default defineConfig({
  main: {
    resolve: { alias: pathAliases() },
    build: {
      rollupOptions: {
        // The chance-to-win solver's worker thread is a script of its own (src/main/core/computer/win-tables.ts).
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'win-table-worker': resolve(__dirname, 'src/main/core/computer/win-table-worker.ts'),
          'odds-worker': resolve(__dirname, 'src/main/core/computer/odds-worker.ts')
        },
        external: ['serialport', 'ws', 'qrcode', 'pino', 'pino-roll']
      }
    }
  },
  preload: {
    resolve: { alias: pathAliases() },
    build: {
      // A sandboxed preload can require only 'electron': everything else (the screen API's table
      // and its validation library) is bundled in.
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    resolve: { alias: pathAliases() },
    build: {
      // The league page and TV (src/renderer/src/league) are an entry of their own, served by the league host too.
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html'), league: resolve(__dirname, 'src/renderer/league.html') } }
    },
    plugins: [vue(), indexHtmlPolicyTag, assetsFromRoot]
  }
})
