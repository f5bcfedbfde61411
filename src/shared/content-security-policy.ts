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

/** A Vite plugin that puts the page's policy into index.html as its first <meta>. */
export const indexHtmlPolicyTag = {
  name: 'content-security-policy',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: PAGE_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' as const }
  ]
}
