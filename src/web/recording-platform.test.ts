import { describe, expect, it } from 'vitest'
import type { RecordedEffect } from '../shared/web/web-shell-events'
import type { NotebookWindowRequest } from '../main/core-types'
import { recordingPlatform } from '../main/testing/core-harness'
import { EffectLog, recordingEffects } from './recording-platform'

const notebook: NotebookWindowRequest = {
  profileId: 'sandbox',
  instanceId: 'i-1',
  instanceName: 'trainer',
  url: 'https://nb.example/lab',
  cookie: { url: 'https://nb.example', name: 'AccessToken', value: 'secret-cookie', secure: true, httpOnly: true, sameSite: 'strict' }
}

function rig() {
  let now = 1_000
  const heard: RecordedEffect[] = []
  const log = new EffectLog(
    () => now++,
    (effect) => heard.push(effect)
  )
  const inner = recordingPlatform()
  return { log, heard, inner, platform: recordingEffects(inner, log) }
}

describe('the web shell’s recording platform', () => {
  it('records each Electron-only effect, in words for the page, and still passes it on', async () => {
    const { platform, inner, heard, log } = rig()
    platform.showNotification({ id: 'n1', kind: 'ready', title: '«a» is ready', body: 'Running' })
    await platform.openNotebook(notebook)
    await platform.openExternal('https://example.com/a')
    platform.writeClipboard?.('ssh -p 2222 root@127.0.0.1')
    expect(heard).toEqual([
      { id: 1, at: 1_000, kind: 'os-notification', detail: '«a» is ready — Running' },
      // The URL only: the cookie never reaches the page.
      { id: 2, at: 1_001, kind: 'notebook-window', detail: 'https://nb.example/lab' },
      { id: 3, at: 1_002, kind: 'external-url', detail: 'https://example.com/a' },
      { id: 4, at: 1_003, kind: 'clipboard', detail: 'ssh -p 2222 root@127.0.0.1' }
    ])
    expect(log.all()).toEqual(heard)
    expect(inner.notifications).toHaveLength(1)
    expect(inner.notebooks).toEqual([notebook])
    expect(inner.external).toEqual(['https://example.com/a'])
    expect(inner.clipboard).toEqual(['ssh -p 2222 root@127.0.0.1'])
  })

  it('passes on what stays inside the app without recording it', async () => {
    const { platform, inner, heard } = rig()
    platform.setTray({ tooltip: 'Cloud Tray', icon: 'idle', items: [] })
    platform.setStartAtLogin(true)
    platform.showWindow()
    platform.quit()
    expect(heard).toEqual([])
    expect([inner.trays.length, inner.startAtLogin, inner.shown, inner.quits]).toEqual([1, [true], 1, 1])
  })

  it('keeps the latest 50, ids still counting', async () => {
    const { platform, log } = rig()
    // why: the recorder under test wraps a fake platform, so no link reaches the OS here.
    for (let i = 1; i <= 60; i++) await platform.openExternal(`https://example.com/${i}`) // eng-disable OPEN_EXTERNAL_JS_CHECK
    const kept = log.all()
    expect(kept).toHaveLength(50)
    expect(kept[0]).toMatchObject({ id: 11, detail: 'https://example.com/11' })
    expect(kept.at(-1)).toMatchObject({ id: 60, detail: 'https://example.com/60' })
  })
})
