import { join } from 'node:path'
import { build } from 'vite'
import vue from '@vitejs/plugin-vue'
import { indexHtmlPolicyTag } from '../shared/content-security-policy'

/** Builds the renderer as electron-vite does for the app window, for the headless host. */
export async function buildRenderer(projectRoot: string, outDir: string): Promise<void> {
  const root = join(projectRoot, 'src', 'renderer')
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'error',
    plugins: [vue(), indexHtmlPolicyTag],
    build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false }, rollupOptions: { input: join(root, 'index.html') } }
  })
}
