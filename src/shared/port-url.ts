/**
 * The browser address of a forwarded port: `http://HOST:NODEPORT`, HOST being the port entry's
 * address or the region's SSH address, both server text. An IPv6 literal is bracketed exactly
 * once whether or not the server already bracketed it (`::1` and `[::1]` both give
 * `http://[::1]:N`), and anything that is not a plain host name, IPv4 or IPv6 literal gives no
 * address at all rather than a URL with a path, credentials or a different host smuggled in.
 * (The one rule for port links; the tray and the Ports panel both use it.)
 */
export function portUrl(host: string | undefined, nodePort: number): string | undefined {
  if (!Number.isInteger(nodePort) || nodePort < 1 || nodePort > 65_535) return undefined
  const bare = (host ?? '').trim().replace(/^\[(.*)\]$/, '$1')
  if (bare === '') return undefined
  const ipv6 = bare.includes(':')
  if (ipv6 ? !/^[0-9A-Fa-f:.]+$/.test(bare) : !/^[A-Za-z0-9._-]+$/.test(bare)) return undefined
  let url: URL
  try {
    url = new URL(`http://${ipv6 ? `[${bare}]` : bare}:${nodePort}/`)
  } catch {
    return undefined
  }
  // URL drops the default port 80; keep it visible so the address reads as the node port it is.
  return `http://${url.hostname}:${nodePort}`
}
