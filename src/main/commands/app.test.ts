import { describe, expect, it } from 'vitest'
import type { Platform } from '../core-types'
import { appCommands, type AppServices } from './app'

function readClipboard(platform: Partial<Platform>): Promise<{ text: string }> {
  const services: AppServices = { version: '0', platform: { openExternal: async () => undefined, ...platform }, warnings: () => [] }
  return appCommands(services).handlers['clipboard.read'](undefined, { clientId: 'window' })
}

describe('clipboard.read (the terminal’s Paste)', () => {
  it('answers the text main reads from the clipboard', async () => {
    await expect(readClipboard({ readClipboard: async () => 'echo hi' })).resolves.toEqual({ text: 'echo hi' })
  })

  it('where the shell has no clipboard of its own, says what to do instead', async () => {
    await expect(readClipboard({})).rejects.toMatchObject({ kind: 'not-allowed', message: expect.stringMatching(/paste shortcut/) })
  })
})
