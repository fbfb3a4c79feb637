/**
 * What the cloud and the instance say about SSH (login name, host, port, host key type) goes into
 * a command the user pastes, ~/.ssh/config and known_hosts. Whatever they say: the checks never
 * throw, what they let through has none of the characters those places could misread, and the
 * Host block built from it is always the same few lines, however odd the instance's name.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planHostBlock } from './config/ssh-config'
import { keyTypeOfBlob } from './host-keys/known-hosts'
import { shownValue, sshHost, sshPort, sshUser } from './ssh-values'

const odd = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    'root\nProxyCommand touch /tmp/x',
    'a b',
    '-oProxyCommand=x',
    'host#x',
    '%h',
    '$(x)',
    '[::1]',
    '::1',
    '10.0.0.1',
    'ubuntu',
    '\u202eroot'
  ),
  fc.string({ unit: fc.constantFrom('a', '.', '-', ':', '[', ']', ' ', '\n', '%', '#', '0', 'é'), maxLength: 300 })
)
const MISREAD = /[\s"'`#%$\\;&|<>(){}*?!,=@\u0000-\u001f\u007f-\u009f]/u

describe('SSH values from the cloud, whatever they are', () => {
  it('never throw; what passes has nothing a shell, ssh_config or known_hosts could misread', () => {
    fc.assert(
      fc.property(odd, fc.oneof(fc.integer(), fc.double()), (text, port) => {
        for (const checked of [sshUser(text), sshHost(text)]) {
          if (!checked.ok) {
            expect(checked.problem.length).toBeLessThan(200)
            continue
          }
          expect(MISREAD.test(checked.value.replace(/:/g, ''))).toBe(false)
          expect(checked.value.startsWith('-')).toBe(false)
          expect(checked.value.length).toBeLessThanOrEqual(253)
        }
        const checkedPort = sshPort(port)
        if (checkedPort.ok) expect(Number.isInteger(checkedPort.value) && checkedPort.value >= 1 && checkedPort.value <= 65_535).toBe(true)
        expect(shownValue(text).length).toBeLessThanOrEqual(60)
      })
    )
  })

  it('the Host block is the same few lines whatever the instance is called, and the rest of the file is kept', () => {
    const user = odd.map(sshUser).filter((v) => v.ok)
    const host = odd.map(sshHost).filter((v) => v.ok)
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 100 }),
        user,
        host,
        fc.integer({ min: 1, max: 65_535 }),
        fc.constantFrom('', 'Host *\n  User me\n', 'ForwardAgent no\nHost a\n  Port 2\n'),
        (name, instanceId, username, hostname, port, existing) => {
          const plan = planHostBlock(existing, {
            instanceId,
            instanceName: name,
            target: { host: hostname.ok ? hostname.value : '', port, username: username.ok ? username.value : '' }
          })
          const lines = plan.block.trimEnd().split('\n')
          expect(lines.length).toBeGreaterThanOrEqual(6)
          expect(lines.length).toBeLessThanOrEqual(7)
          expect(lines[1]).toMatch(/^Host cloudtray-[A-Za-z0-9._-]+$/)
          expect(lines.filter((line) => /^\s*(ProxyCommand|LocalCommand|Match|Include)\b/i.test(line))).toEqual([])
          for (const line of existing.split('\n').filter(Boolean)) expect(plan.config).toContain(line)
        }
      )
    )
  })

  it('a host key type is printable, at most 64 bytes, or the key is refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat({ max: 80 }), (bytes, length) => {
        const blob = Buffer.concat([Buffer.from([0, 0, 0, length]), Buffer.from(bytes)])
        let keyType: string | undefined
        try {
          keyType = keyTypeOfBlob(blob)
        } catch (error) {
          expect(error).toBeInstanceOf(Error)
          return
        }
        expect(keyType.length).toBeLessThanOrEqual(64)
        expect(/^[\x21-\x7e]+$/.test(keyType)).toBe(true)
      })
    )
  })
})
