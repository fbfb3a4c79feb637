/**
 * Settings as typed JSON in `<dataDir>/settings.json`, written atomically. A file that is not
 * valid JSON or does not match the schema is moved aside (`settings.json.bad-<time>`) so the
 * user can recover it, and the app runs on defaults with a warning instead of refusing to start.
 */
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Settings, SettingsPatch } from '../../shared/contract'
import type { Clock } from '../../shared/clock'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { AppError } from '../app-error'
import { describeDiskError } from '../util/disk-problem'
import { DEFAULT_SETTINGS, SettingsSchema, applySettingsPatch, SettingsPatchSchema } from './settings-schema'

export interface SettingsLoad {
  settings: Settings
  /** A sentence for the user when the file had to be replaced by defaults. */
  warning?: string
}

export class SettingsStore {
  private current: Settings = structuredClone(DEFAULT_SETTINGS)
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock
  ) {}

  get path(): string {
    return join(this.dataDir, 'settings.json')
  }

  get(): Settings {
    return this.current
  }

  async load(): Promise<SettingsLoad> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.current = structuredClone(DEFAULT_SETTINGS)
        return { settings: this.current }
      }
      throw error
    }
    const parsed = parseSettings(text)
    if (parsed) {
      this.current = parsed
      return { settings: parsed }
    }
    const aside = `${this.path}.bad-${this.clock.now()}`
    await rename(this.path, aside)
    this.current = structuredClone(DEFAULT_SETTINGS)
    return {
      settings: this.current,
      warning: `Your settings file could not be read, so Cloud Tray is using the default settings. The old file was kept as ${aside}.`
    }
  }

  /**
   * Applies a validated patch and writes the file; concurrent updates are serialised. A change
   * counts only once it is on disk: when the write fails, the settings stay as they were (what
   * the window shows and what the app does agree) and the error says why, in the user's words.
   */
  async update(patch: SettingsPatch): Promise<Settings> {
    const parsed = SettingsPatchSchema.parse(patch)
    const saved = this.writing.then(async () => {
      const next = applySettingsPatch(this.current, parsed)
      await this.write(next)
      this.current = next
      return next
    })
    this.writing = saved.then(
      () => undefined,
      () => undefined
    )
    return saved
  }

  private async write(settings: Settings): Promise<void> {
    try {
      await writeFileAtomic(this.path, JSON.stringify(settings, null, 2) + '\n')
    } catch (error) {
      throw new AppError(
        'io',
        `Could not save your settings in ${this.path}: ${describeDiskError(error)}. Nothing was changed; fix that and try again.`,
        {
          cause: error
        }
      )
    }
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
