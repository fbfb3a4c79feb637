import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CATALOG } from './catalog'
import { parseCli } from './cli'
import { pager, post } from './testing/http-client'

describe('parseCli', () => {
  const files: Record<string, string> = {
    'me.pub': 'ssh-ed25519 AAAAC3Nz me@laptop\n# comment\n',
    id_ed25519: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n',
    'catalog.json': JSON.stringify(DEFAULT_CATALOG),
    'broken.json': JSON.stringify({ ...DEFAULT_CATALOG, regions: [{ regionId: 'r' }] })
  }
  const read = (path: string): string => {
    const text = files[path]
    if (text === undefined) throw new Error('ENOENT: no such file')
    return text
  }

  it('reads every option', () => {
    const options = parseCli(
      [
        '--port',
        '4000',
        '--control-port',
        '4001',
        '--user',
        'ada:pa:ss',
        '--user',
        'bob:x',
        '--state',
        's.json',
        '--catalog',
        'catalog.json',
        '--boot-ms',
        '250',
        '--token-ttl',
        '60',
        '--ssh-key',
        'me.pub'
      ],
      read
    )
    expect(options).toEqual({
      port: 4000,
      controlPort: 4001,
      users: [
        { username: 'ada', password: 'pa:ss' },
        { username: 'bob', password: 'x' }
      ],
      statePath: 's.json',
      catalog: DEFAULT_CATALOG,
      bootMs: 250,
      tokenTtlSeconds: 60,
      sshKeys: { ada: ['ssh-ed25519 AAAAC3Nz me@laptop'] },
      // Reach (SSH, notebook, forwarders) is on in the CLI; see ./reach.
      reach: expect.any(Function)
    })
    expect(parseCli(['--ssh-key', 'me.pub'], read)).toMatchObject({ sshKeys: { demo: ['ssh-ed25519 AAAAC3Nz me@laptop'] } })
    expect(parseCli(['--help'], read)).toBe('help')
    expect(parseCli(['--user', 'ada:pw', '--api-key', 'ada:console-key:1'], read)).toMatchObject({
      apiKeys: [{ username: 'ada', key: 'console-key:1' }]
    })
  })

  it('explains bad input', () => {
    expect(() => parseCli(['--port', 'abc'], read)).toThrow(/--port needs a whole number/)
    expect(() => parseCli(['--user', 'nopassword'], read)).toThrow(/NAME:PASSWORD/)
    expect(() => parseCli(['--ssh-key', 'id_ed25519'], read)).toThrow(/private key; pass the \.pub/)
    expect(() => parseCli(['--ssh-key', 'missing.pub'], read)).toThrow(/could not be read/)
    expect(() => parseCli(['--catalog', 'broken.json'], read)).toThrow(/--catalog broken\.json: regions\.0\.name/)
    expect(() => parseCli(['--frobnicate'], read)).toThrow(/frobnicate/)
    expect(() => parseCli(['--api-key', 'nokey'], read)).toThrow(/USER:KEY/)
    expect(() => parseCli(['--api-key', 'ada:some-key'], read)).toThrow(/user "ada", who is not one of the accounts/)
  })
})

describe('npm run emulator', () => {
  it('prints its base URL, its control address and secret (#12 item 1), and serves until SIGTERM', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
    const stateDir = await mkdtemp(join(tmpdir(), 'cloud-emulator-cli-'))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--port', '0', '--user', 'ada:secret', '--boot-ms', '100', '--state', join(stateDir, 'state.json')],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    )
    try {
      const printed = await new Promise<RegExpExecArray>((resolve, reject) => {
        let out = ''
        const timer = setTimeout(() => reject(new Error(`no URL printed; got: ${out}`)), 15_000)
        child.stdout.on('data', (data: Buffer) => {
          out += data.toString()
          const match =
            /listening on (http:\/\/127\.0\.0\.1:\d+\/api)\n[^]*Control: (http:\/\/127\.0\.0\.1:\d+\/__emulator)\/[^]*Bearer <secret>"\): ([0-9a-f]{64})\nControl secret written to (.+)\n/.exec(
              out
            )
          if (match) {
            clearTimeout(timer)
            resolve(match)
          }
        })
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)))
      })
      const [, baseUrl, controlUrl, secret, secretPath] = printed as unknown as [string, string, string, string, string]
      const loggedIn = await post(baseUrl, '/user/login', { username: 'ada', password: 'secret' })
      expect(loggedIn.status).toBe(200)
      const listed = await post(baseUrl, '/instance/list', pager(1, 10), loggedIn.body.accessToken)
      expect(listed.body.pager.totalEntries).toBe(0)

      // The secret is written beside --state, readable by this user only, and opens the control routes.
      expect(secretPath).toBe(join(stateDir, 'control-secret'))
      expect((await readFile(secretPath, 'utf8')).trim()).toBe(secret)
      expect((await stat(secretPath)).mode & 0o777).toBe(0o600)
      const now = await fetch(`${controlUrl}/now`, { headers: { authorization: `Bearer ${secret}` } })
      expect(now.status).toBe(200)
      expect((await fetch(`${controlUrl}/now`)).status).toBe(401)
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})
