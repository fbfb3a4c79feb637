/**
 * Trusting the Sandbox emulator's self-signed notebook certificate, and nothing else: a
 * certificate is accepted by pin only for the pinned host and only when its SHA-256 matches.
 *
 * Electron's `certificate.fingerprint` is `sha256/<base64 of the DER's SHA-256>`; the emulator
 * (and SandboxInfo) give the same hash as hex. Both are turned into bytes before comparing.
 */
import { timingSafeEqual } from 'node:crypto'

export interface CertificatePin {
  /** The host the pin is for, e.g. `127.0.0.1` (no port: Electron's verify request has none). */
  hostname: string
  /** SHA-256 of the certificate's DER, hex (colons and case ignored). */
  sha256: string
}

export function isPinnedCertificate(hostname: string, electronFingerprint: string, pin: CertificatePin | undefined): boolean {
  if (!pin) return false
  if (hostname.toLowerCase() !== pin.hostname.toLowerCase()) return false
  const actual = electronFingerprintBytes(electronFingerprint)
  const expected = hexBytes(pin.sha256)
  if (!actual || !expected || actual.length !== 32 || expected.length !== 32) return false
  return timingSafeEqual(actual, expected)
}

function electronFingerprintBytes(fingerprint: string): Buffer | undefined {
  const match = /^sha256\/([A-Za-z0-9+/]{43}=)$/.exec(fingerprint.trim())
  return match ? Buffer.from(match[1]!, 'base64') : undefined
}

function hexBytes(hex: string): Buffer | undefined {
  const clean = hex.replaceAll(':', '').trim().toLowerCase()
  return /^[0-9a-f]{64}$/.test(clean) ? Buffer.from(clean, 'hex') : undefined
}

/** The pin for a notebook URL's host, when the Sandbox gave a fingerprint. */
export function pinFor(notebookUrl: string, sha256: string | undefined): CertificatePin | undefined {
  if (!sha256) return undefined
  return { hostname: new URL(notebookUrl).hostname, sha256 }
}
