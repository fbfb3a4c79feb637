/**
 * The app's side of a client's proof (src/shared/node/cli-socket/protocol.ts): the file the
 * client made in the 0700 folder for this connection's nonce. It is opened without following
 * links (and without blocking, should it be a FIFO), must be a plain file with one link, owned by
 * the app's own uid where the OS has uids, holding a 64-hex value; it is removed whatever it was.
 */
import { constants } from 'node:fs'
import { open, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { PROOF_VALUE, proofFileName } from '../../shared/node/cli-socket/protocol'

export class ProofError extends Error {
  override name = 'ProofError'
}

const PROOF_BYTES = 64

/** Reads and removes the proof for `nonce`; throws ProofError saying what was wrong. */
export async function takeProof(dir: string, nonce: string, me = process.getuid?.()): Promise<string> {
  const path = join(dir, proofFileName(nonce))
  try {
    let handle
    try {
      handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      throw new ProofError(code === 'ENOENT' ? 'no proof file was made' : `the proof file could not be opened (${code})`)
    }
    try {
      const stats = await handle.stat()
      if (!stats.isFile() || stats.nlink !== 1) throw new ProofError('the proof is not a plain file')
      if (me !== undefined && stats.uid !== me) throw new ProofError(`the proof was made by another user (uid ${stats.uid})`)
      if (stats.size !== PROOF_BYTES) throw new ProofError('the proof file holds something else')
      const buffer = Buffer.alloc(PROOF_BYTES)
      const { bytesRead } = await handle.read(buffer, 0, PROOF_BYTES, 0)
      const value = buffer.subarray(0, bytesRead).toString('latin1')
      if (!PROOF_VALUE.test(value)) throw new ProofError('the proof file holds something else')
      return value
    } finally {
      await handle.close()
    }
  } finally {
    await unlink(path).catch(() => undefined)
  }
}
