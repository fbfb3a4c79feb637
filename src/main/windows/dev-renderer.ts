/**
 * electron-vite's dev server hands its page's address to main in ELECTRON_RENDERER_URL. Only a
 * development run may follow it: in an installed app the variable would let anyone who can set
 * an environment variable load any origin into the window that speaks the whole contract
 * (create, stop and terminate instances, SSH, ~/.ssh/config), the very path the fuses close for
 * NODE_OPTIONS and --inspect (scripts/after-pack-fuses.cjs). electron-vite's own template guards
 * it the same way (`is.dev && process.env['ELECTRON_RENDERER_URL']`).
 */
export function devRendererUrl(isPackaged: boolean, env: NodeJS.ProcessEnv): { devUrl?: string } {
  const url = env['ELECTRON_RENDERER_URL']
  if (isPackaged || !url) return {}
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? { devUrl: parsed.href } : {}
  } catch {
    return {}
  }
}
