/**
 * Profiles: which cloud to talk to. Two are built in (the provider and the embedded Sandbox);
 * users add their own for other deployments. Pure functions over ProfilesFile, plus the
 * small store that keeps it in `<dataDir>/profiles.json` (no secrets in it: the token lives in
 * the keychain or in memory).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Profile, ProfileInput, ProfilesState, SandboxAccess } from '../../shared/contract'
import { AppError } from '../app-error'
import { saveJsonFile } from '../util/disk-problem'
import { WrittenState } from '../util/written-state'

export const HPC_AI_PROFILE_ID = 'hpc-ai'
export const SANDBOX_PROFILE_ID = 'sandbox'
export const SANDBOX_USERNAME = 'demo'

export const BUILT_IN_PROFILES: readonly Profile[] = [
  { id: HPC_AI_PROFILE_ID, name: 'HPC-AI', baseUrl: 'https://hpc-ai.com/api', builtIn: 'hpc-ai' },
  // The URL is filled in once the embedded emulator listens (a free loopback port).
  { id: SANDBOX_PROFILE_ID, name: 'Sandbox', baseUrl: '', builtIn: 'sandbox' }
]

const ProfilesFileSchema = z.object({
  userProfiles: z.array(z.object({ id: z.string().min(1), name: z.string(), baseUrl: z.string() })).default([]),
  selectedId: z.string().default(SANDBOX_PROFILE_ID),
  /** Last user name per profile, to prefill the login form. */
  lastUsernames: z.record(z.string(), z.string()).default({}),
  /** How each profile was last signed in to (absent: password). */
  lastMethods: z.record(z.string(), z.enum(['password', 'api-key'])).default({}),
  /**
   * The remembered session to resume at start: where to look in the keychain, and the origin
   * the token was issued by (session-origin.ts); it is resumed only against that origin.
   */
  remembered: z
    .object({
      profileId: z.string(),
      username: z.string(),
      expiresAt: z.number().optional(),
      origin: z.string().optional(),
      /** `api-key`: the keychain holds the key (apiKeyAccount), resumed without expiry. */
      method: z.enum(['password', 'api-key']).optional()
    })
    .nullable()
    .default(null)
})
export type ProfilesFile = z.infer<typeof ProfilesFileSchema>

export function defaultProfilesFile(): ProfilesFile {
  // First run: the Sandbox is preselected with its demo account, so Sign in shows a working cloud.
  return { userProfiles: [], selectedId: SANDBOX_PROFILE_ID, lastUsernames: {}, lastMethods: {}, remembered: null }
}

export function allProfiles(file: ProfilesFile, sandboxUrl: string): Profile[] {
  return [...BUILT_IN_PROFILES.map((p) => (p.builtIn === 'sandbox' ? { ...p, baseUrl: sandboxUrl } : { ...p })), ...file.userProfiles]
}

/** `sandbox`: the running Sandbox (its password is prefilled while it is selected). */
export function profilesState(file: ProfilesFile, sandboxUrl: string, sandbox?: SandboxAccess): ProfilesState {
  const profiles = allProfiles(file, sandboxUrl)
  const selectedId = profiles.some((p) => p.id === file.selectedId) ? file.selectedId : SANDBOX_PROFILE_ID
  const isSandbox = selectedId === SANDBOX_PROFILE_ID
  const lastUsername = file.lastUsernames[selectedId] ?? (isSandbox ? SANDBOX_USERNAME : '')
  return {
    profiles,
    selectedId,
    lastUsername,
    lastMethod: file.lastMethods[selectedId] ?? 'password',
    ...(isSandbox && sandbox ? { demoPassword: sandbox.password } : {}),
    ...(sandbox ? { sandbox } : {})
  }
}

/**
 * A base URL the app will send a token to. Plain http only to this machine: anywhere else the
 * token would cross the network readable by anyone on the path.
 */
export function normaliseBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new AppError('bad-input', 'Enter the API address as a full URL, for example https://cloud.example.com/api.', {
      field: 'baseUrl'
    })
  }
  if (url.username || url.password) {
    throw new AppError('bad-input', 'Leave the user name and password out of the address; sign in after saving.', {
      field: 'baseUrl'
    })
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new AppError('bad-input', 'Use an https:// address (plain http:// is only allowed for this computer).', {
      field: 'baseUrl'
    })
  }
  if (url.search || url.hash) {
    throw new AppError('bad-input', 'The API address cannot contain ? or #.', { field: 'baseUrl' })
  }
  return url.toString().replace(/\/+$/, '')
}

export function saveProfile(file: ProfilesFile, input: ProfileInput, newId: () => string = randomUUID): ProfilesFile {
  const name = input.name.trim()
  if (!name) throw new AppError('bad-input', 'Give the profile a name.', { field: 'name' })
  if (name.length > 60) throw new AppError('bad-input', 'Keep the profile name under 60 characters.', { field: 'name' })
  const baseUrl = normaliseBaseUrl(input.baseUrl)
  if (input.id !== undefined && BUILT_IN_PROFILES.some((p) => p.id === input.id)) {
    throw new AppError('not-allowed', 'Built-in profiles cannot be changed. Add a new profile instead.')
  }
  const clash = [...BUILT_IN_PROFILES, ...file.userProfiles].find((p) => p.id !== input.id && p.name.toLowerCase() === name.toLowerCase())
  if (clash) throw new AppError('bad-input', `A profile named “${clash.name}” already exists.`, { field: 'name' })
  if (input.id === undefined) {
    const profile = { id: `user-${newId()}`, name, baseUrl }
    return { ...file, userProfiles: [...file.userProfiles, profile] }
  }
  if (!file.userProfiles.some((p) => p.id === input.id)) {
    throw new AppError('not-allowed', 'That profile no longer exists. Add it again.')
  }
  return {
    ...file,
    userProfiles: file.userProfiles.map((p) => (p.id === input.id ? { id: p.id, name, baseUrl } : p))
  }
}

export function removeProfile(file: ProfilesFile, id: string): ProfilesFile {
  if (BUILT_IN_PROFILES.some((p) => p.id === id)) {
    throw new AppError('not-allowed', 'Built-in profiles cannot be removed.')
  }
  if (!file.userProfiles.some((p) => p.id === id)) return file
  const lastUsernames = { ...file.lastUsernames }
  delete lastUsernames[id]
  const lastMethods = { ...file.lastMethods }
  delete lastMethods[id]
  return {
    ...file,
    userProfiles: file.userProfiles.filter((p) => p.id !== id),
    selectedId: file.selectedId === id ? SANDBOX_PROFILE_ID : file.selectedId,
    lastUsernames,
    lastMethods,
    remembered: file.remembered?.profileId === id ? null : file.remembered
  }
}

export function selectProfile(file: ProfilesFile, id: string): ProfilesFile {
  if (!allProfiles(file, '').some((p) => p.id === id)) {
    throw new AppError('not-allowed', 'That profile no longer exists. Pick another one.')
  }
  return { ...file, selectedId: id }
}

export class ProfilesStore {
  private readonly state = new WrittenState<ProfilesFile>(defaultProfilesFile(), (file) => saveJsonFile('your profiles', this.path, file))

  constructor(private readonly dataDir: string) {}

  get path(): string {
    return join(this.dataDir, 'profiles.json')
  }

  get(): ProfilesFile {
    return this.state.get()
  }

  /** Returns a warning sentence when the file was unreadable and defaults are used. */
  async load(): Promise<string | undefined> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    try {
      this.state.loaded(ProfilesFileSchema.parse(JSON.parse(text)))
      return undefined
    } catch {
      this.state.loaded(defaultProfilesFile())
      return 'Your saved profiles could not be read; the built-in profiles are available. Add your own profiles again.'
    }
  }

  /**
   * `change` applied to the profiles as the changes before it left them, then written: kept only
   * once on disk (util/written-state.ts), so a failed write changes nothing and says why.
   */
  update(change: (file: ProfilesFile) => ProfilesFile): Promise<ProfilesFile> {
    return this.state.update(change)
  }
}
