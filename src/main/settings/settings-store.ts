/**
 * Settings as typed JSON in `<dataDir>/settings.json`, written atomically. A file that is not
 * valid JSON or does not match the schema is moved aside (`settings.json.bad-<time>`) so the
 * user can recover it, and the app runs on defaults with a warning instead of refusing to start.
 */
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Settings, SettingsPatch } from '../../shared/contract'
import type { Clock } from '../../shared/clock'
import { saveJsonFile } from '../util/disk-problem'
import { WrittenState } from '../util/written-state'
import { DEFAULT_SETTINGS, SettingsSchema, applySettingsPatch, SettingsPatchSchema } from './settings-schema'

export interface SettingsLoad {
  settings: Settings
  /** A sentence for the user when the file had to be replaced by defaults. */
  warning?: string
}

export class SettingsStore {
  private readonly state = new WrittenState<Settings>(structuredClone(DEFAULT_SETTINGS), (settings) =>
    saveJsonFile('your settings', this.path, settings)
  )

  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock
  ) {}

  get path(): string {
    return join(this.dataDir, 'settings.json')
  }

  get(): Settings {
    return this.state.get()
  }

  async load(): Promise<SettingsLoad> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.state.loaded(structuredClone(DEFAULT_SETTINGS))
        return { settings: this.state.get() }
      }
      throw error
    }
    const parsed = parseSettings(text)
    if (parsed) {
      this.state.loaded(parsed)
      return { settings: parsed }
    }
    const aside = `${this.path}.bad-${this.clock.now()}`
    await rename(this.path, aside)
    this.state.loaded(structuredClone(DEFAULT_SETTINGS))
    return {
      settings: this.state.get(),
      warning: `Your settings file could not be read, so Cloud Tray is using the default settings. The old file was kept as ${aside}.`
    }
  }

  /**
   * Applies a validated patch and writes the file (util/written-state.ts): a change counts only
   * once it is on disk, so when the write fails the settings stay as they were and the error
   * says why, in the user's words.
   */
  async update(patch: SettingsPatch): Promise<Settings> {
    const parsed = SettingsPatchSchema.parse(patch)
    return this.state.update((current) => applySettingsPatch(current, parsed))
  }
}

function parseSettings(text: string): Settings | undefined {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const result = SettingsSchema.safeParse(json)
  return result.success ? result.data : undefined
}
