/**
 * The HTML the emulator's notebook endpoint answers: a small stand-in for a Jupyter page when
 * the cookie is right, and short pages that say what to do when it is not.
 */

/** Headers for every page the emulator serves: nothing runs, nothing embeds it, nothing is cached. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 46rem; padding: 0 1rem; color: #1d232a; background: #fff; }
  @media (prefers-color-scheme: dark) { body { color: #e6e9ee; background: #15191e; } .cell { background: #1f252c; } }
  .cell { font-family: ui-monospace, monospace; background: #f3f5f7; border-radius: 6px; padding: .75rem 1rem; margin: .75rem 0; white-space: pre-wrap; }
  .prompt { color: #6a737d; }
</style>
</head>
<body>
${body}
</body>
</html>
`
}

export function notebookPage(instanceId: string, username: string): string {
  const id = escapeHtml(instanceId)
  return page(
    `Notebook — ${instanceId}`,
    `<main>
<h1>Notebook on ${id}</h1>
<p>Signed in as <strong>${escapeHtml(username)}</strong>. This is the Cloud Tray emulator's stand-in for the instance's notebook.</p>
<section aria-label="Cell 1">
<div class="cell"><span class="prompt">In [1]:</span> import socket; socket.gethostname()</div>
<div class="cell" role="status"><span class="prompt">Out[1]:</span> '${id}'</div>
</section>
<p><a href="https://hpc-ai.com/">Provider documentation</a> (opens in your browser)</p>
</main>`
  )
}

/**
 * What Jupyter's port (8888) answers inside an emulated instance: reached through an SSH tunnel
 * or the instance's node port, with no cookie (the SSH login, or the cloud's port forward, is
 * the way in).
 */
export function jupyterPage(instanceId: string): string {
  const id = escapeHtml(instanceId)
  return page(
    `Jupyter — ${instanceId}`,
    `<main>
<h1>Jupyter on ${id}</h1>
<p>This is the Cloud Tray emulator's stand-in for the Jupyter server listening on port 8888 inside the instance.</p>
<section aria-label="Cell 1">
<div class="cell"><span class="prompt">In [1]:</span> import socket; socket.gethostname()</div>
<div class="cell" role="status"><span class="prompt">Out[1]:</span> '${id}'</div>
</section>
</main>`
  )
}

export function signInPage(): string {
  return page(
    'Sign in from Cloud Tray',
    `<main>
<h1>Sign in from Cloud Tray</h1>
<p>This notebook opens only with your session. Open it from Cloud Tray (instance → Open notebook); if you are signed out or your session expired, sign in there first.</p>
</main>`
  )
}

export function notFoundPage(): string {
  return page(
    'No notebook here',
    `<main>
<h1>No notebook here</h1>
<p>No running instance serves this address. Start the instance in Cloud Tray and open its notebook from there.</p>
</main>`
  )
}
