/**
 * Where an instance's notebook is, in main's words. The rule (spec: URL = `https://` +
 * regionInfo.domain + instanceRuntimeInfo.subUrl, usable while Running) is notebookLocation in
 * src/shared/instance-rules.ts; this adds the message the user reads when there is none.
 */
import type { Instance } from '../../shared/api'
import { notebookLocation } from '../../shared/instance-rules'

export type NotebookAddress =
  { ok: true; url: string; origin: string } | { ok: false; reason: 'not-running' | 'bad-address'; message: string }

export function notebookAddress(instance: Instance): NotebookAddress {
  const location = notebookLocation(instance)
  if (location.ok) return location
  const name = instance.instanceSpecInfo.name
  if (location.reason === 'not-running') {
    const status = instance.instanceRuntimeInfo.status
    return { ...location, message: `The notebook of ${name} opens once the instance is Running; it is ${status} now.` }
  }
  const shown = `${instance.instanceSpecInfo.regionInfo.domain.trim()}${instance.instanceRuntimeInfo.subUrl.trim()}`
  return {
    ...location,
    message: `The cloud gave ${name} a notebook address Cloud Tray cannot open (“${shown}”). Try again in a minute; if it stays, contact support.`
  }
}

/** The notebook URL while the instance is Running, else undefined. */
export function notebookUrl(instance: Instance): string | undefined {
  const address = notebookAddress(instance)
  return address.ok ? address.url : undefined
}
