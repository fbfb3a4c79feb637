/** Text into HTML, for the few pages main writes itself. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}

/**
 * A page main writes itself into a notebook window (the "opening" and "did not load" pages): no
 * script, no request of any kind (its policy allows inline styles and nothing else), the app's
 * light and dark colours. `title` is text; `body` is HTML its caller has already escaped.
 */
export function localPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:40rem;padding:0 1rem}@media (prefers-color-scheme:dark){body{background:#15191e;color:#e6e9ee}}</style>
</head><body><main>${body}</main></body></html>`
}

/** A page as the data: URL main loads it from (it needs nothing from the network). */
export function dataUrl(html: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`
}
