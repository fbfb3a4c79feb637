/**
 * The command line's pure parts: names to instances, cp's places and paths, tunnel ports, how
 * an installed app is found for --start, a status change's line, the progress bar, and what a
 * server string may do to the terminal (nothing).
 */
import { describe, expect, it } from 'vitest'
import { makeInstance } from '../shared/testing/instance'
import { localName, parsePlace, remotePathOf } from './commands/cp'
import { pickTemplate, type TemplateChoice } from './commands/launch'
import { parsePorts } from './commands/tunnel'
import { watchLine } from './commands/watch'
import { CliError, EXIT, exitCodeOf } from './exit-codes'
import { resolveInstance } from './instance-names'
import { displayWidth, shown, table } from './output'
import { ProgressBar } from './progress'
import { installedAppLauncher, type LauncherFs } from './start-app'

const named = (name: string, id: string) => makeInstance({ id, name })

function refusal(work: () => unknown): CliError {
  try {
    work()
  } catch (error) {
    if (error instanceof CliError) return error
    throw error
  }
  throw new Error('expected a CliError')
}

describe('an instance by name', () => {
  const all = [
    named('train-a', 'notebook-1'),
    named('train-b', 'notebook-2'),
    named('box', 'notebook-3'),
    named('box', 'notebook-4'),
    named('solo', 'notebook-5')
  ]

  it('is its id, its exact name, or the one name that starts so', () => {
    expect(resolveInstance(all, 'notebook-3').instanceMetadata.instanceId).toBe('notebook-3')
    expect(resolveInstance(all, 'train-a').instanceMetadata.instanceId).toBe('notebook-1')
    expect(resolveInstance(all, 'so').instanceMetadata.instanceId).toBe('notebook-5')
  })

  it('is refused when several match (exit 6, listing them) or none does (exit 4)', () => {
    const several = refusal(() => resolveInstance(all, 'train'))
    expect(several.code).toBe(EXIT.ambiguous)
    expect(several.message).toContain('“train” matches 2 instances')
    const twins = refusal(() => resolveInstance(all, 'box'))
    expect(twins.message).toMatch(/^2 instances are named “box”; give more of the name, or the id:\n {2}box {2}notebook-3/)
    expect(refusal(() => resolveInstance(all, 'x')).code).toBe(EXIT.notFound)
  })

  it('never prints a server’s escape sequence to the terminal', () => {
    const hostile = [named('evil\u001b]0;pwned\u0007\u202e', 'notebook-9'), named('evil2', 'notebook-10')]
    const message = refusal(() => resolveInstance(hostile, 'evil')).message
    expect(message).not.toMatch(/[\u001b\u0007\u202e]/)
    expect(message).toContain('evil ]0;pwned \uFFFD')
  })
})

describe('app errors as exit codes', () => {
  it('map each kind to the documented code', () => {
    expect(exitCodeOf({ kind: 'no-session', message: '' })).toBe(3)
    expect(exitCodeOf({ kind: 'not-logged-in', message: '' })).toBe(3)
    expect(exitCodeOf({ kind: 'not-found', message: '' })).toBe(4)
    expect(exitCodeOf({ kind: 'invalid-request', message: '' })).toBe(5)
    expect(exitCodeOf({ kind: 'not-allowed', message: '' })).toBe(5)
    expect(exitCodeOf({ kind: 'bad-input', message: '' })).toBe(2)
    expect(exitCodeOf({ kind: 'network', message: '' })).toBe(1)
  })
})

describe('cp’s places', () => {
  it('reads NAME:path when the colon comes before any slash, else a local path', () => {
    expect(parsePlace('box:data/x')).toEqual({ remote: { instance: 'box', path: 'data/x' } })
    expect(parsePlace('box:')).toEqual({ remote: { instance: 'box', path: '' } })
    expect(parsePlace('./a:b')).toEqual({ local: './a:b' })
    expect(parsePlace('/tmp/a:b')).toEqual({ local: '/tmp/a:b' })
    expect(parsePlace('C:\\data', 'win32')).toEqual({ local: 'C:\\data' })
    expect(parsePlace('C:\\data', 'linux')).toEqual({ remote: { instance: 'C', path: '\\data' } })
  })

  it('makes instance paths absolute from the home folder', () => {
    expect(remotePathOf('/root', '')).toBe('/root')
    expect(remotePathOf('/root', '~')).toBe('/root')
    expect(remotePathOf('/root', '~/a/b/')).toBe('/root/a/b')
    expect(remotePathOf('/root', 'a/../b')).toBe('/root/b')
    expect(remotePathOf('/root', '/etc')).toBe('/etc')
    expect(remotePathOf('/root', '../../..')).toBe('/')
    expect(refusal(() => remotePathOf('/root', 'a\0b')).code).toBe(EXIT.usage)
  })

  it('refuses a name from the instance that would leave the destination or is no name here', () => {
    for (const bad of ['', '.', '..', 'a/b', 'a\0b']) expect(() => localName(bad, 'linux')).toThrow(CliError)
    expect(localName('new\nline', 'linux')).toBe('new\nline')
    for (const bad of ['a:b', 'con', 'x.', 'a\\b']) expect(() => localName(bad, 'win32')).toThrow(CliError)
  })
})

describe('tunnel ports', () => {
  it('are PORT or PORT:LOCAL, each 1–65535', () => {
    expect(parsePorts('8888')).toEqual({ remotePort: 8888 })
    expect(parsePorts('8888:18888')).toEqual({ remotePort: 8888, localPort: 18888 })
    for (const bad of ['0', '70000', '8888:', 'x', '1:2:3', '8888:0']) expect(refusal(() => parsePorts(bad)).code).toBe(EXIT.usage)
  })
})

describe('templates by name', () => {
  const all: TemplateChoice[] = ['gpu-dev', 'gpu-big', 'cpu'].map((name) => ({ templateId: `t-${name}`, name }))
  it('are picked like instances: exact (any case, as the app finds them), id, or a unique start', () => {
    expect(pickTemplate(all, 'cpu').templateId).toBe('t-cpu')
    expect(pickTemplate(all, 'CPU').templateId).toBe('t-cpu')
    expect(pickTemplate(all, 't-gpu-big').name).toBe('gpu-big')
    expect(pickTemplate(all, 'gpu-d').name).toBe('gpu-dev')
    expect(refusal(() => pickTemplate(all, 'gpu')).code).toBe(EXIT.ambiguous)
    expect(refusal(() => pickTemplate(all, 'x')).code).toBe(EXIT.notFound)
  })
})

describe('--start', () => {
  const fs = (files: string[], executable: string[] = files): LauncherFs => ({
    exists: (path) => files.includes(path),
    executable: (path) => executable.includes(path),
    list: (dir) => files.filter((file) => file.startsWith(`${dir}/`)).map((file) => file.slice(dir.length + 1))
  })

  it('finds the app the command line came with: Linux binary, macOS bundle, Windows exe', () => {
    expect(installedAppLauncher('/opt/Cloud Tray/resources/cli/cloud-tray.cjs', 'linux', fs(['/opt/Cloud Tray/cloud-tray']))).toEqual({
      command: '/opt/Cloud Tray/cloud-tray',
      args: ['--hidden'],
      app: '/opt/Cloud Tray/cloud-tray'
    })
    expect(
      installedAppLauncher(
        '/Applications/Cloud Tray.app/Contents/Resources/cli/cloud-tray.cjs',
        'darwin',
        fs(['/Applications/Cloud Tray.app'])
      )
    ).toEqual({
      command: 'open',
      args: ['-g', '-a', '/Applications/Cloud Tray.app', '--args', '--hidden'],
      app: '/Applications/Cloud Tray.app'
    })
    expect(
      installedAppLauncher('/p/Cloud Tray/resources/cli/cloud-tray.cjs', 'win32', fs(['/p/Cloud Tray/Cloud Tray.exe']))?.command
    ).toMatch(/Cloud Tray\.exe$/)
  })

  it('finds none for a source checkout or a binary that is not executable', () => {
    expect(installedAppLauncher('/src/cloud-tray/out/cli/cloud-tray.cjs', 'linux', fs(['/src/cloud-tray/out/cloud-tray']))).toBeUndefined()
    expect(
      installedAppLauncher('/opt/Cloud Tray/resources/cli/cloud-tray.cjs', 'linux', fs(['/opt/Cloud Tray/cloud-tray'], []))
    ).toBeUndefined()
  })
})

describe('watch lines', () => {
  const at = new Date('2026-11-26T10:00:00Z')
  it('word a change as the notifications do, or as JSON', () => {
    const ready = { instanceId: 'i', name: 'train', from: 'Starting', to: 'Running' }
    expect(watchLine(ready, at, false)).toMatch(
      /^\d\d:\d\d:\d\d {2}«train» is ready — Open its notebook or a terminal from Cloud Tray\.\n$/
    )
    expect(JSON.parse(watchLine(ready, at, true))).toEqual({
      at: '2026-11-26T10:00:00.000Z',
      id: 'i',
      name: 'train',
      from: 'Starting',
      to: 'Running',
      kind: 'ready',
      title: '«train» is ready',
      body: 'Open its notebook or a terminal from Cloud Tray.'
    })
    expect(watchLine({ instanceId: 'i', name: 'x', from: 'Initializing', to: 'PullingImage' }, at, false)).toMatch(
      /«x»: Preparing → Downloading image\n$/
    )
    expect(watchLine({ instanceId: 'i', name: 'x\u001b[2J', from: null, to: 'Initializing' }, at, false)).not.toContain('\u001b')
  })
})

describe('output', () => {
  it('pads columns by display width (wide characters take two)', () => {
    expect(displayWidth('文件')).toBe(4)
    expect(displayWidth('🚀a')).toBe(3)
    expect(
      table(
        ['A', 'B'],
        [
          ['文件', 'x'],
          ['ab', 'y']
        ]
      )
    ).toBe('A     B\n文件  x\nab    y\n')
    expect(shown('a\tb\u200bc')).toBe('a b\uFFFDc')
  })

  it('draws progress on one line of a terminal only', () => {
    const written: string[] = []
    const stream = { write: (text: string) => written.push(text), columns: 80 } as unknown as NodeJS.WriteStream
    let now = 0
    const bar = new ProgressBar(stream, true, () => now)
    now = 2000
    bar.update({ bytesDone: 32 * 1024 * 1024, bytesTotal: 64 * 1024 * 1024, current: 'big.bin' })
    expect(written[0]).toMatch(/^\rbig\.bin +50% \[#{6} {6}\] 32\.0 MiB\/64\.0 MiB {2}16\.0 MiB\/s {2}2 s left\u001b\[K$/)
    expect(written[0]!.length).toBe(1 + 79 + 3)
    const off = new ProgressBar(stream, false, () => now)
    off.update({ bytesDone: 1, bytesTotal: 2 })
    expect(written).toHaveLength(1)
  })
})
