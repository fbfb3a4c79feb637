/**
 * The app's side of a client's proof: only a plain file, with one link, of the app's own uid,
 * holding a 64-hex value, is taken, and the file is gone afterwards whatever it was.
 */
import { chownSync, linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { proofFileName } from '../../shared/node/cli-socket/protocol'
import { skipBecause } from '../../shared/node/testing/platform-support'
import { ProofError, takeProof } from './peer-proof'

const nonce = 'ab'.repeat(16)
const value = 'cd'.repeat(32)
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function folder(): { dir: string; proof: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ct-proof-'))
  dirs.push(dir)
  return { dir, proof: join(dir, proofFileName(nonce)) }
}

describe('a client’s proof', () => {
  it('takes the value of a plain file of this uid and removes it', async () => {
    const { dir, proof } = folder()
    writeFileSync(proof, value, { mode: 0o600 })
    await expect(takeProof(dir, nonce)).resolves.toBe(value)
    expect(existsSync(proof)).toBe(false)
  })

  it('refuses what is missing, not a plain file, linked, or holds something else, and removes it', async () => {
    const { dir, proof } = folder()
    await expect(takeProof(dir, nonce)).rejects.toThrow('no proof file was made')

    writeFileSync(join(dir, 'elsewhere'), value)
    symlinkSync(join(dir, 'elsewhere'), proof)
    await expect(takeProof(dir, nonce)).rejects.toThrow(/could not be opened \(ELOOP\)/)
    expect(existsSync(proof)).toBe(false)

    linkSync(join(dir, 'elsewhere'), proof)
    await expect(takeProof(dir, nonce)).rejects.toThrow('the proof is not a plain file')

    execFileSync('mkfifo', [proof])
    await expect(takeProof(dir, nonce)).rejects.toThrow('the proof is not a plain file')

    writeFileSync(proof, 'x'.repeat(64))
    await expect(takeProof(dir, nonce)).rejects.toThrow('the proof file holds something else')
    expect(existsSync(proof)).toBe(false)
  })

  it('refuses a nonce that is not 32 hex characters (a name that could leave the folder)', async () => {
    const { dir } = folder()
    await expect(takeProof(dir, '../../etc/passwd')).rejects.toThrow(/32 hex characters/)
  })

  it.skipIf(
    skipBecause(process.getuid?.() === 0 ? undefined : 'only root can make a file owned by another user', 'the other-owner refusal')
  )('refuses a file another user made (root can make one for the test)', async () => {
    const { dir, proof } = folder()
    writeFileSync(proof, value)
    chownSync(proof, 65534, 65534)
    await expect(takeProof(dir, nonce)).rejects.toThrow(new ProofError('the proof was made by another user (uid 65534)'))
    expect(existsSync(proof)).toBe(false)
  })
})
