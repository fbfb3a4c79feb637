/**
 * The notebook page's self-signed certificate: made at first start and kept with the emulator's
 * state, so the app can pin it by fingerprint and the pin survives emulator restarts.
 */
import { X509Certificate } from 'node:crypto'
import { generate } from 'selfsigned'
import { readStateFile, writeStateFile } from './state-files'

export const NOTEBOOK_CERT_FILE = 'notebook-cert.pem'
const KEY_FILE = 'notebook-key.pem'
const VALIDITY_DAYS = 825

export interface NotebookCertificate {
  /** PEM certificate: what a client passes as its only CA (`curl --cacert`, undici `connect.ca`). */
  certPem: string
  keyPem: string
  /** SHA-256 of the certificate's DER, lowercase hex without colons (SandboxInfo.notebookCertSha256). */
  sha256: string
}

/**
 * How a loopback TLS server's certificate is made (here, and for the tests' private CA to sign):
 * EC P-256, for `hostname` and 127.0.0.1, valid from a minute before `now` (a clock a little
 * behind still accepts it) for `validDays`.
 */
export function serverCertificateOptions(hostname: string, now: Date, validDays: number): NonNullable<Parameters<typeof generate>[1]> {
  return {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + validDays * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: hostname },
          { type: 7, ip: '127.0.0.1' }
        ]
      }
    ]
  }
}

export async function loadOrCreateNotebookCertificate(stateDir: string | undefined, now: Date): Promise<NotebookCertificate> {
  if (stateDir !== undefined) {
    const [certPem, keyPem] = await Promise.all([readStateFile(stateDir, NOTEBOOK_CERT_FILE), readStateFile(stateDir, KEY_FILE)])
    if (certPem !== undefined && keyPem !== undefined) {
      const certificate = new X509Certificate(certPem)
      // A certificate that has run out would fail every notebook load: make a new one (the app re-pins on start).
      if (new Date(certificate.validTo).getTime() > now.getTime()) return { certPem, keyPem, sha256: sha256Of(certificate) }
    }
  }
  const made = await generate(
    [{ name: 'commonName', value: 'Cloud Tray emulator notebook' }],
    serverCertificateOptions('localhost', now, VALIDITY_DAYS)
  )
  if (stateDir !== undefined) {
    await writeStateFile(stateDir, KEY_FILE, made.private)
    await writeStateFile(stateDir, NOTEBOOK_CERT_FILE, made.cert)
  }
  return { certPem: made.cert, keyPem: made.private, sha256: sha256Of(new X509Certificate(made.cert)) }
}

function sha256Of(certificate: X509Certificate): string {
  return certificate.fingerprint256.replaceAll(':', '').toLowerCase()
}
