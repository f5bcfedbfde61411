// The screens' Content Security Policy, in one place: the page carries it in a <meta> tag (added
// to index.html at build time, see indexHtmlPolicyTag) and every server of the page sends it as a
// header (the headless host over HTTP, the desktop app's app:// scheme). The screens load only
// their own files and talk only to their own origin (the host's WebSocket is on the page's own
// address; in the desktop app they talk over IPC and connect nowhere).

/** The policy of the page, as the <meta> tag carries it. */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'"
].join('; ')

/** The same policy as a header, plus what only a header can say (no framing by other pages). */
export const HEADER_CONTENT_SECURITY_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`

/**
 * The policy of the camera's Web Worker (src/renderer/src/camera/camera.worker.ts), sent with its
 * script: a worker has the policy its own script comes with, not the page's. It may compile
 * WebAssembly (OpenCV's build) and make functions from text ('unsafe-eval': OpenCV's Emscripten
 * bindings name their classes' functions with `new Function`); it loads and connects to nothing.
 */
export const CAMERA_WORKER_CONTENT_SECURITY_POLICY = ["default-src 'none'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'"].join('; ')

/** The camera worker's script in the build: `assets/camera.worker-HASH.js`. */
const CAMERA_WORKER_FILE = /(^|\/)assets\/camera\.worker-[\w-]+\.js$/

/** The policy a server sends with a file of the built screens (its path in the build). */
export function contentSecurityPolicyFor(path: string): string {
  return CAMERA_WORKER_FILE.test(path.replace(/\\/g, '/')) ? CAMERA_WORKER_CONTENT_SECURITY_POLICY : HEADER_CONTENT_SECURITY_POLICY
}

/** A Vite plugin that puts the page's policy into index.html as its first <meta>. */
export const indexHtmlPolicyTag = {
  name: 'content-security-policy',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: PAGE_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' as const }
  ]
}
