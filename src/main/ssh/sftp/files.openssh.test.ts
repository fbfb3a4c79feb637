/**
 * The files panel against Debian's OpenSSH (sftp-server through the fixture's subsystem, whose
 * faults are a read-only server and a full tmpfs): the cases are in testing/files-suite.ts.
 */
import { join } from 'node:path'
import { describe } from 'vitest'
import { filesCommands } from '../../commands/ssh-files'
import { FilesManager } from './files-manager'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { FilesHarness, groupDriver } from '../testing/files-harness'
import { filesSuite } from '../testing/files-suite'
import { opensshAvailable } from '../testing/openssh-server'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { splitClock } from '../testing/split-clock'
import { sshdLinks } from '../testing/sshd-links'

describe.skipIf(!opensshAvailable())('files (SFTP) against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-files-')
  const cleanups: (() => void)[] = []
  sshd.onEnd(async () => {
    for (const cleanup of cleanups) cleanup()
  })

  async function setup() {
    const { clock } = splitClock()
    const knownHosts = new KnownHostsStore(join(sshd.scratch, `known_hosts-${cleanups.length}`), undefined)
    const { keyType, keyBase64 } = sshd.server.hostPublicKey()
    await knownHosts.remember('127.0.0.1', sshd.server.port, { keyType, keyBase64 })
    const harness = new FilesHarness()
    const links = sshdLinks(sshd.server, { clock, knownHosts, homeDir: sshd.scratch, emit: harness.emit })
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
    scratch: sshd.scratch,
    home: sshd.server.homePath,
    setFault: (fault) => sshd.server.setSftpFault(fault)
  }))
})
