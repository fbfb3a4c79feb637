/**
 * The files panel against Debian's OpenSSH (sftp-server through the fixture's subsystem, whose
 * faults are a read-only server and a full tmpfs): the cases are in testing/files-suite.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { filesCommands } from '../../commands/ssh-files'
import { FilesManager } from './files-manager'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { FilesHarness, groupDriver } from '../testing/files-harness'
import { filesSuite } from '../testing/files-suite'
import { OpenSshServer, opensshAvailable } from '../testing/openssh-server'
import { splitClock } from '../testing/split-clock'
import { sshdLinks } from '../testing/sshd-links'

describe.skipIf(!opensshAvailable())('files (SFTP) against OpenSSH', () => {
  let server: OpenSshServer
  let scratch: string
  const cleanups: (() => void)[] = []

  beforeAll(async () => {
    server = new OpenSshServer()
    await server.start()
    scratch = mkdtempSync(join(tmpdir(), 'cloudtray-files-'))
  })

  afterAll(async () => {
    for (const cleanup of cleanups) cleanup()
    await server?.dispose()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  async function setup() {
    const { clock } = splitClock()
    const knownHosts = new KnownHostsStore(join(scratch, `known_hosts-${cleanups.length}`), undefined)
    const { keyType, keyBase64 } = server.hostPublicKey()
    await knownHosts.remember('127.0.0.1', server.port, { keyType, keyBase64 })
    const harness = new FilesHarness()
    const links = sshdLinks(server, { clock, knownHosts, homeDir: scratch, emit: harness.emit })
    const files = new FilesManager({ links, clock, emit: harness.emit })
    Object.assign(harness, groupDriver(filesCommands(files), harness.clientId))
    cleanups.push(
      () => files.dispose(),
      () => links.dispose()
    )
    return { harness }
  }

  filesSuite(async () => ({
    ...(await setup()),
    instanceId: 'i-1',
    scratch,
    home: server.homePath,
    setFault: (fault) => server.setSftpFault(fault)
  }))
})
