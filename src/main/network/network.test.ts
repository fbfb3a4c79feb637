/**
 * The API client on a company network: through an HTTP CONNECT proxy on loopback, trusting a
 * private root that only the OS store holds, with NO_PROXY's exceptions; and the rules that pick
 * the proxy (a PAC answer from Chromium, or the environment).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { LookupFunction } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedTestSigningKey, startEmulator, type Emulator } from '../../emulator/index'

import type { Events } from '../../shared/contract'
import { createMemoryKeychain } from '../account/keychain'
import { createCloudClient } from '../cloud/client'
import { isCloudError } from '../cloud/errors'
import type { Keychain } from '../core-types'
import { createNetworkRoute } from './network-route'
import { ProxyAuth, proxyKeychainAccount } from './proxy-auth'
import { connectProbe } from './proxy-probe'
import { bypassed, environmentProxy, firstUsableProxy } from './proxy-rules'
import { LINUX_BUNDLES, systemTrust } from './system-trust'
import {
  connectProxy,
  makePrivateCa,
  serverCertificate,
  tlsFront,
  type ConnectProxy,
  type Listening,
  type PrivateCa
} from './testing/private-ca'

describe('which proxy', () => {
  it.each([
    ['DIRECT', { kind: 'direct' }],
    ['PROXY proxy.corp:8080; DIRECT', { kind: 'proxy', uri: 'http://proxy.corp:8080' }],
    ['HTTPS secure.corp:443', { kind: 'proxy', uri: 'https://secure.corp:443' }],
    ['SOCKS5 socks.corp:1080', { kind: 'proxy', uri: 'socks5://socks.corp:1080' }],
    ['SOCKS old.corp:1080; PROXY next.corp:3128', { kind: 'proxy', uri: 'http://next.corp:3128' }],
    ['PROXY [::1]:3128', { kind: 'proxy', uri: 'http://[::1]:3128' }],
    ['PROXY not a host', { kind: 'direct' }],
    ['', { kind: 'direct' }]
  ])('Chromium says %j', (pac, expected) => {
    expect(firstUsableProxy(pac)).toEqual(expected)
  })

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['https://hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128' }, 'http://proxy:3128'],
    ['https://hpc-ai.com/api', { https_proxy: 'proxy:3128', HTTPS_PROXY: 'http://other:1' }, 'http://proxy:3128'],
    ['http://hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128' }, 'direct'],
    ['http://hpc-ai.com/api', { HTTP_PROXY: 'http://proxy:3128' }, 'http://proxy:3128'],
    ['https://hpc-ai.com/api', { ALL_PROXY: 'socks5h://s:1080' }, 'socks5://s:1080'],
    ['https://hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'hpc-ai.com' }, 'direct'],
    ['https://api.hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.hpc-ai.com' }, 'direct'],
    ['https://nothpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'hpc-ai.com' }, 'http://proxy:3128'],
    ['https://hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'hpc-ai.com:8443' }, 'http://proxy:3128'],
    ['https://hpc-ai.com/api', { HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'x.org, *' }, 'direct'],
    ['http://127.0.0.1:4000/api', { HTTP_PROXY: 'http://proxy:3128' }, 'direct'],
    ['http://localhost:4000/api', { HTTP_PROXY: 'http://proxy:3128' }, 'direct'],
    ['https://hpc-ai.com/api', { HTTPS_PROXY: 'ftp://proxy:21' }, 'direct']
  ])('%s with %j → %s', (url, env, expected) => {
    const choice = environmentProxy(url, env)
    expect(choice.kind === 'proxy' ? choice.uri : 'direct').toBe(expected)
  })

  it('NO_PROXY matches an IP literal only itself', () => {
    expect(bypassed(new URL('https://10.0.0.5/'), '10.0.0.5')).toBe(true)
    expect(bypassed(new URL('https://110.0.0.5/'), '0.0.5')).toBe(false)
  })

  it('a loopback address never goes through the proxy Chromium names (the Sandbox)', async () => {
    const route = createNetworkRoute({ resolveProxy: async () => 'PROXY proxy.corp:8080' })
    expect(await route.proxyFor('http://127.0.0.1:4000/api')).toEqual({ kind: 'direct' })
    expect(await route.proxyFor('https://hpc-ai.com/api')).toEqual({ kind: 'proxy', uri: 'http://proxy.corp:8080' })
  })
})

describe('which roots', () => {
  it("Node's roots and the system's, each once, from tls.getCACertificates where Node has it", () => {
    const fake = {
      rootCertificates: ['-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----'],
      getCACertificates: () => [
        '-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----',
        '-----BEGIN CERTIFICATE-----\nB\n-----END CERTIFICATE-----'
      ]
    }
    const trust = systemTrust({ tls: fake as unknown as typeof tls, platform: 'darwin' })
    expect(trust.certificates).toHaveLength(2)
    expect(trust.source).toBe('tls.getCACertificates(system)')
  })

  it("older Node on Linux: SSL_CERT_FILE, else the distribution's bundle", () => {
    const files: Record<string, string> = {
      '/custom.pem': '-----BEGIN CERTIFICATE-----\nC\n-----END CERTIFICATE-----\n',
      [LINUX_BUNDLES[1]!]: '-----BEGIN CERTIFICATE-----\nF\n-----END CERTIFICATE-----\n'
    }
    const readFile = (path: string): string => {
      if (!(path in files)) throw new Error('ENOENT')
      return files[path]!
    }
    const noApi = { rootCertificates: [] } as unknown as typeof tls
    expect(systemTrust({ tls: noApi, platform: 'linux', env: { SSL_CERT_FILE: '/custom.pem' }, readFile }).source).toBe('/custom.pem')
    const fedora = systemTrust({ tls: noApi, platform: 'linux', env: {}, readFile })
    expect([fedora.source, fedora.certificates.length]).toEqual([LINUX_BUNDLES[1], 1])
  })
})

describe('the API client on a company network (loopback CONNECT proxy, private root)', { timeout: 60_000 }, () => {
  const HOST = 'cloud.test'
  let emulator: Emulator
  let ca: PrivateCa
  let front: Listening
  let proxy: ConnectProxy
  let authProxy: ConnectProxy
  let scratch: string
  let osBundle: string

  beforeAll(async () => {
    emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey() })
    ca = await makePrivateCa()
    front = await tlsFront(emulator.baseUrl, await serverCertificate(ca, HOST))
    proxy = await connectProxy()
    authProxy = await connectProxy(CORP)
    scratch = mkdtempSync(join(tmpdir(), 'network-test-'))
    osBundle = join(scratch, 'ca-certificates.crt')
    writeFileSync(osBundle, ca.certPem)
  })
  afterAll(async () => {
    await Promise.all([proxy?.close(), authProxy?.close(), front?.close(), emulator?.close()])
    rmSync(scratch, { recursive: true, force: true })
  })

  /** The OS store as an older Node on Linux reads it: this bundle holds the private root. */
  const trustWith = (bundle: string | undefined) => () =>
    systemTrust({
      tls: { rootCertificates: tls.rootCertificates } as typeof tls,
      platform: 'linux',
      env: bundle ? { SSL_CERT_FILE: bundle } : { SSL_CERT_FILE: '/nonexistent' },
      readFile: (path) =>
        path === bundle
          ? ca.certPem
          : (() => {
              throw new Error('ENOENT')
            })()
    })
  const login = (env: NodeJS.ProcessEnv, bundle: string | undefined, lookup?: LookupFunction) =>
    createCloudClient({
      baseUrl: `https://${HOST}:${front.port}/api`,
      token: () => undefined,
      network: createNetworkRoute({ env, trust: trustWith(bundle) }),
      ...(lookup ? { lookup } : {})
    })

  it('signs in through HTTPS_PROXY, trusting the root the OS store holds', async () => {
    const client = login({ HTTPS_PROXY: proxy.url }, osBundle)
    const before = proxy.tunnels.length
    try {
      const result = await client.login({ username: 'demo', password: 'demo' })
      expect(result.accessToken).toMatch(/^ey/)
      expect(proxy.tunnels.slice(before)).toEqual([`${HOST}:${front.port}`])
    } finally {
      await client.close()
    }
  })

  it("without the OS's root the same sign-in fails, and says it is the certificate", async () => {
    const client = login({ HTTPS_PROXY: proxy.url }, undefined)
    try {
      const error = await client.login({ username: 'demo', password: 'demo' }).then(
        () => undefined,
        (thrown: unknown) => thrown
      )
      expect(isCloudError(error)).toBe(true)
      expect(String((error as Error).message)).toMatch(/certificate/i)
    } finally {
      await client.close()
    }
  })

  it('NO_PROXY sends the address direct: the proxy sees nothing', async () => {
    const loopback: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
      else callback(null, '127.0.0.1', 4)
    }
    const client = login({ HTTPS_PROXY: proxy.url, NO_PROXY: HOST }, osBundle, loopback)
    const before = proxy.tunnels.length
    try {
      expect((await client.login({ username: 'demo', password: 'demo' })).accessToken).toMatch(/^ey/)
      expect(proxy.tunnels.length).toBe(before)
    } finally {
      await client.close()
    }
  })

  describe('a proxy that asks for a user name and password (407)', () => {
    /** Main's side of the dialog: what the window is asked, and the API client through the proxy it guards. */
    const rig = (env: NodeJS.ProcessEnv, keychain: Keychain = createMemoryKeychain()) => {
      const asked: Events['proxy.auth'][] = []
      const auth = new ProxyAuth({
        keychain,
        emit: (event, payload) => {
          if (event === 'proxy.auth') asked.push(payload as Events['proxy.auth'])
        },
        now: () => 0,
        probe: connectProbe()
      })
      const session: { token?: string } = {}
      const client = createCloudClient({
        baseUrl: `https://${HOST}:${front.port}/api`,
        token: () => session.token,
        network: auth.around(createNetworkRoute({ env, trust: trustWith(osBundle) }))
      })
      return { auth, asked, client, keychain, session }
    }
    const signIn = (client: ReturnType<typeof createCloudClient>) => client.login({ username: 'demo', password: 'demo' })
    const failure = (promise: Promise<unknown>): Promise<unknown> =>
      promise.then(
        () => undefined,
        (thrown: unknown) => thrown
      )

    it('without credentials the sign-in fails saying so, and the window is asked which ones', async () => {
      authProxy.require(CORP)
      const { client, asked } = rig({ HTTPS_PROXY: authProxy.url })
      try {
        const error = await failure(signIn(client))
        expect(isCloudError(error) && error.kind).toBe('network')
        expect((error as Error).message).toBe(
          `Could not log in: the proxy "${authProxy.hostPort}" asks for a user name and password. Enter your proxy user name and password when Cloud Tray asks for them (your network administrator can tell you which); Cloud Tray then tries again by itself.`
        )
        expect(asked.at(-1)).toEqual({ asking: { proxy: authProxy.hostPort, username: '', rejected: false } })
      } finally {
        await client.close()
      }
    })

    it('a wrong password is refused in the dialog and asked again; the right one lets the sign-in and the list through', async () => {
      authProxy.require(CORP)
      const { auth, client, asked, keychain, session } = rig({ HTTPS_PROXY: authProxy.url })
      try {
        await failure(signIn(client))
        const wrong = await failure(auth.signIn({ proxy: authProxy.hostPort, username: CORP.username, password: 'nope', remember: true }))
        expect(isCloudError(wrong) && [wrong.kind, wrong.field, wrong.message]).toEqual([
          'bad-credentials',
          'password',
          'The proxy did not accept that user name and password. Check them (they are often your company sign-in) and try again.'
        ])
        // Still asking (the dialog keeps both fields as they were typed), and nothing kept.
        expect(auth.state().asking?.proxy).toBe(authProxy.hostPort)
        expect(await keychain.get(proxyKeychainAccount(authProxy.hostPort))).toBeNull()

        expect(await auth.signIn({ proxy: authProxy.hostPort, ...CORP, remember: true })).toEqual({ asking: null })
        expect(asked.at(-1)).toEqual({ asking: null })
        // The user's retry, then the poller's next round, through the same client: its pool was rebuilt with them.
        session.token = (await signIn(client)).accessToken
        expect((await client.listAllInstances()).instances).toBeInstanceOf(Array)
        expect(authProxy.tunnels.at(-1)).toBe(`${HOST}:${front.port}`)
        expect(JSON.parse((await keychain.get(proxyKeychainAccount(authProxy.hostPort))) ?? '{}')).toEqual(CORP)
      } finally {
        await client.close()
      }
    })

    it('credentials the proxy stops taking: the call says it refused them, and the window is asked again, told so', async () => {
      authProxy.require(CORP)
      const { auth, client, asked } = rig({ HTTPS_PROXY: authProxy.url })
      try {
        await failure(signIn(client))
        await auth.signIn({ proxy: authProxy.hostPort, ...CORP, remember: false })
        expect((await signIn(client)).accessToken).toMatch(/^ey/)
        const changed = { ...CORP, password: 'changed' }
        authProxy.require(changed)
        const error = await failure(signIn(client))
        expect((error as Error).message).toContain(
          `the proxy "${authProxy.hostPort}" did not accept the user name and password Cloud Tray gave it.`
        )
        expect(asked.at(-1)).toEqual({ asking: { proxy: authProxy.hostPort, username: CORP.username, rejected: true } })
        await auth.signIn({ proxy: authProxy.hostPort, ...changed, remember: false })
        expect((await signIn(client)).accessToken).toMatch(/^ey/)
      } finally {
        await client.close()
        authProxy.require(CORP)
      }
    })

    it('remembered in the keychain: a new run gets through without asking', async () => {
      authProxy.require(CORP)
      const keychain = createMemoryKeychain()
      await keychain.set(proxyKeychainAccount(authProxy.hostPort), JSON.stringify(CORP))
      const { client, asked } = rig({ HTTPS_PROXY: authProxy.url }, keychain)
      try {
        expect((await signIn(client)).accessToken).toMatch(/^ey/)
        expect(asked).toEqual([])
      } finally {
        await client.close()
      }
    })

    it("HTTPS_PROXY's own user name and password (the web shell) still get through without asking", async () => {
      authProxy.require(CORP)
      const withUser = authProxy.url.replace('http://', `http://${CORP.username}:${encodeURIComponent(CORP.password)}@`)
      const { client, asked } = rig({ HTTPS_PROXY: withUser })
      try {
        expect((await signIn(client)).accessToken).toMatch(/^ey/)
        expect(asked).toEqual([])
      } finally {
        await client.close()
      }
    })
  })
})

const CORP = { username: 'alice', password: 'corp p@ss:wörd' }
