/** Where the command line finds the app on each OS, and how its frames cross a byte stream. */
import { describe, expect, it } from 'vitest'
import { FRAME_HEADER_BYTES, FrameReader, FrameTooLargeError, frameOf } from './frames'
import { MAX_SOCKET_PATH, cliSocketPlace } from './place'

describe('the command line socket’s place', () => {
  it('is in the session’s runtime folder on Linux, else under the user’s state folder', () => {
    expect(cliSocketPlace({ platform: 'linux', env: { XDG_RUNTIME_DIR: '/run/user/1000' }, home: '/home/ada' })).toEqual({
      dir: '/run/user/1000/cloud-tray',
      path: '/run/user/1000/cloud-tray/cli.sock',
      pipe: false
    })
    expect(cliSocketPlace({ platform: 'linux', env: {}, home: '/home/ada' }).path).toBe('/home/ada/.local/state/cloud-tray/run/cli.sock')
    expect(cliSocketPlace({ platform: 'linux', env: { XDG_STATE_HOME: '/s' }, home: '/home/ada' }).path).toBe('/s/cloud-tray/run/cli.sock')
    // A relative XDG_RUNTIME_DIR is not a place anyone made for this session.
    expect(cliSocketPlace({ platform: 'linux', env: { XDG_RUNTIME_DIR: 'run' }, home: '/home/ada' }).dir).toBe(
      '/home/ada/.local/state/cloud-tray/run'
    )
  })

  it('is under Application Support on macOS, and a per-user named pipe on Windows', () => {
    expect(cliSocketPlace({ platform: 'darwin', env: {}, home: '/Users/ada' }).path).toBe(
      '/Users/ada/Library/Application Support/cloud-tray/run/cli.sock'
    )
    const windows = cliSocketPlace({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, home: 'C:\\Users\\ada' })
    expect(windows.pipe).toBe(true)
    expect(windows.dir).toBe('C:\\Users\\ada\\AppData\\Local\\cloud-tray\\run')
    expect(windows.path).toMatch(/^\\\\\.\\pipe\\cloud-tray-cli-[0-9a-f]{16}$/)
    const other = cliSocketPlace({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\bob\\AppData\\Local' }, home: 'C:\\Users\\bob' })
    expect(other.path).not.toBe(windows.path)
  })

  it('goes where CLOUD_TRAY_RUNTIME_DIR says, and the default paths fit a Unix socket', () => {
    expect(
      cliSocketPlace({ platform: 'linux', env: { CLOUD_TRAY_RUNTIME_DIR: '/tmp/x', XDG_RUNTIME_DIR: '/run/user/1' }, home: '/h' }).path
    ).toBe('/tmp/x/cli.sock')
    const long = cliSocketPlace({ platform: 'darwin', env: {}, home: '/Users/a-rather-long-user-name' })
    expect(long.path.length).toBeLessThan(MAX_SOCKET_PATH)
  })
})

describe('frames on a byte stream', () => {
  it('come out whole however the stream cuts them, text and binary alike', () => {
    const frames: (string | Uint8Array)[] = []
    const reader = new FrameReader(1024 * 1024, (frame) => frames.push(frame))
    const big = new Uint8Array(100_000).map((_, i) => i % 251)
    const bytes = Buffer.concat([...frameOf('{"t":"hello"}'), ...frameOf(big), ...frameOf('ünï')])
    for (let offset = 0; offset < bytes.length; offset += 7) reader.push(bytes.subarray(offset, offset + 7))
    expect(frames).toHaveLength(3)
    expect([frames[0], frames[2]]).toEqual(['{"t":"hello"}', 'ünï'])
    expect(Buffer.compare(Buffer.from(frames[1] as Uint8Array), Buffer.from(big))).toBe(0)
  })

  it('refuse a frame over the limit before reading it', () => {
    const reader = new FrameReader(10, () => undefined)
    const header = Buffer.alloc(FRAME_HEADER_BYTES)
    header.writeUInt32BE(11, 0)
    expect(() => reader.push(header)).toThrow(FrameTooLargeError)
  })
})
