/**
 * The certificate authorities the API client trusts: Node's bundled roots and the ones the OS
 * trusts (a company's TLS-inspecting proxy adds its root there, and Chromium's notebook windows
 * already trust it). Node 23.5+ and 22.15+ read the OS store themselves
 * (`tls.getCACertificates('system')`; Electron 45 carries Node 24); older Node, like the one the
 * tests may run on, reads the OpenSSL bundle Linux distributions keep (`SSL_CERT_FILE` first, as
 * OpenSSL itself does). macOS and Windows without that API: Node's roots only, and the log says so.
 */
import { readFileSync } from 'node:fs'
import * as tls from 'node:tls'

/** Where Linux distributions keep the system bundle: Debian/Ubuntu/Arch, Fedora/RHEL, openSUSE, Alpine's twin. */
export const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem'
]

export interface SystemTrust {
  /** PEM certificates, each once: Node's bundled roots, then the system's. */
  certificates: string[]
  /** Where the system's came from, for the log: `tls.getCACertificates`, a bundle path, or why none. */
  source: string
}

type TlsWithStore = typeof tls & { getCACertificates?: (type?: 'default' | 'system' | 'bundled' | 'extra') => string[] }

export interface TrustSources {
  tls?: TlsWithStore
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
  readFile?: (path: string) => string
}

/** Splits a PEM bundle into its certificates. */
export function pemCertificates(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
}

export function systemTrust(sources: TrustSources = {}): SystemTrust {
  const api = sources.tls ?? (tls as TlsWithStore)
  const platform = sources.platform ?? process.platform
  const env = sources.env ?? process.env
  const read = sources.readFile ?? ((path: string) => readFileSync(path, 'utf8'))
  const bundled = [...api.rootCertificates]
  let system: string[] = []
  let source: string
  if (typeof api.getCACertificates === 'function') {
    system = api.getCACertificates('system')
    source = 'tls.getCACertificates(system)'
  } else if (platform === 'linux' || platform === 'freebsd') {
    source = 'none found'
    for (const path of [env['SSL_CERT_FILE'], ...LINUX_BUNDLES].filter((p): p is string => Boolean(p))) {
      try {
        system = pemCertificates(read(path))
        source = path
        break
      } catch {
        // Not on this distribution: try the next.
      }
    }
  } else {
    source = `this Node (${process.version}) cannot read the ${platform} store`
  }
  const normal = (pem: string): string => pem.replace(/\r/g, '').trim()
  const seen = new Set<string>()
  const certificates = [...bundled, ...system].map(normal).filter((pem) => !seen.has(pem) && Boolean(seen.add(pem)))
  return { certificates, source }
}
