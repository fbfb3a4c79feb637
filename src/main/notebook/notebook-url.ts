/**
 * Where an instance's notebook is (spec: URL = `https://` + regionInfo.domain +
 * instanceRuntimeInfo.subUrl, usable when the status is Running).
 */
import type { Instance } from '../../shared/api'

export type NotebookAddress =
  | { ok: true; url: string; origin: string }
  | { ok: false; reason: 'not-running' | 'bad-address'; message: string }

export function notebookAddress(instance: Instance): NotebookAddress {
  const status = instance.instanceRuntimeInfo.status
  const name = instance.instanceSpecInfo.name
  if (status !== 'Running') {
    return { ok: false, reason: 'not-running', message: `The notebook of ${name} opens once the instance is Running; it is ${status} now.` }
  }
  const domain = instance.instanceSpecInfo.regionInfo.domain.trim()
  const subUrl = instance.instanceRuntimeInfo.subUrl.trim()
  const badAddress = {
    ok: false as const,
    reason: 'bad-address' as const,
    message: `The cloud gave ${name} a notebook address Cloud Tray cannot open (“${domain}${subUrl}”). Try again in a minute; if it stays, contact support.`
  }
  // The domain must be a bare host[:port]: anything that would change the URL's meaning (a path,
  // credentials, a scheme) is refused rather than guessed at.
  if (domain === '' || /[/\\@?#\s]/.test(domain)) return badAddress
  let url: URL
  try {
    url = new URL(`https://${domain}${subUrl.startsWith('/') ? subUrl : `/${subUrl}`}`)
  } catch {
    return badAddress
  }
  // The path must not move the URL to another host (it cannot after the checks above; kept as the invariant).
  if (url.host !== new URL(`https://${domain}`).host) return badAddress
  return { ok: true, url: url.href, origin: url.origin }
}

/** The notebook URL while the instance is Running, else undefined. */
export function notebookUrl(instance: Instance): string | undefined {
  const address = notebookAddress(instance)
  return address.ok ? address.url : undefined
}
