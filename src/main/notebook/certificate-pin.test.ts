import { createHash, X509Certificate } from 'node:crypto'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { isPinnedCertificate, pinFor } from './certificate-pin'

const der = Buffer.from('a certificate, as DER bytes')
const hash = createHash('sha256').update(der).digest()
const electron = `sha256/${hash.toString('base64')}`
const hex = hash.toString('hex')
const other = `sha256/${createHash('sha256').update('another').digest('base64')}`

describe('isPinnedCertificate', () => {
  it.each([
    ['127.0.0.1', electron, { hostname: '127.0.0.1', sha256: hex }, true],
    ['127.0.0.1', electron, { hostname: '127.0.0.1', sha256: hex.toUpperCase().match(/../g)!.join(':') }, true],
    ['LOCALHOST', electron, { hostname: 'localhost', sha256: hex }, true],
    ['127.0.0.1', other, { hostname: '127.0.0.1', sha256: hex }, false],
    ['example.com', electron, { hostname: '127.0.0.1', sha256: hex }, false],
    ['127.0.0.1', electron, undefined, false],
    ['127.0.0.1', hex, { hostname: '127.0.0.1', sha256: hex }, false],
    ['127.0.0.1', `sha1/${hash.subarray(0, 20).toString('base64')}`, { hostname: '127.0.0.1', sha256: hex }, false],
    ['127.0.0.1', electron, { hostname: '127.0.0.1', sha256: hex.slice(0, 62) }, false],
    ['127.0.0.1', electron, { hostname: '127.0.0.1', sha256: '' }, false]
  ])('%s %s with pin %j → %s', (hostname, fingerprint, pin, expected) => {
    expect(isPinnedCertificate(hostname, fingerprint, pin)).toBe(expected)
  })

  it('matches a real certificate: Electron’s base64 form of the DER hash against Node’s fingerprint256', async () => {
    const made = await generate([{ name: 'commonName', value: 'pin test' }], { keyType: 'ec', curve: 'P-256' })
    const certificate = new X509Certificate(made.cert)
    const electronForm = `sha256/${createHash('sha256').update(certificate.raw).digest('base64')}`
    expect(isPinnedCertificate('127.0.0.1', electronForm, pinFor('https://127.0.0.1:9/x', certificate.fingerprint256))).toBe(true)
  })
})
