/**
 * The account: which clouds the user has (profiles), who is signed in to which (the session and
 * its token), the embedded Sandbox for the Sandbox profile, and the re-login gate's session side
 * (an expired token parks the command that met it until the same user signs in again).
 *
 * What the session is, and when it is about to expire, goes out as events (`session`,
 * `session.expiring`, `profiles`) for the windows and the parts of main that follow them. The
 * parts that run only while signed in (the watcher, the balance, the catalog) are told the
 * moments to start and stop through listen(): a sign-out's `ending` comes before the state
 * changes, which no event can say. It owns the cloud clients, since each one reads this
 * session's token.
 */
import type { Clock } from '../../shared/clock'
import type { CommandName, KeyLoginInput, LoginInput, Profile, ProfileInput, ProfilesState, SessionState } from '../../shared/contract'
import { AppError } from '../app-error'
import type { CloudClient } from '../cloud/types'
import { CloudClients, type CloudClientFactory } from '../cloud/cloud-clients'
import type { NetworkRoute } from '../network/network-route'
import { CloudError, isCloudError } from '../cloud/errors'
import type { CoreLog, EventSink, Keychain, Platform } from '../core-types'
import { toErrorInfo } from '../error-info'
import { ProfilesStore, SANDBOX_PROFILE_ID, allProfiles, profilesState, removeProfile, saveProfile, selectProfile } from './profiles'
import { ReloginGate } from './relogin-gate'
import { ADDRESS_CHANGED_WARNING_ID, addressChangedMessage, editEndsSession, sessionOrigin } from './session-origin'
import { startSandbox, type RunningSandbox, type SandboxInfo, type StartEmulator } from './sandbox'
import { startSandboxEmulator, type ReachFactory } from './sandbox-emulator'
import { Session } from './session'

/** The moments the parts that run only while signed in must act (changes of state are the `session` event). */
export interface SessionListener {
  /** A session began (a login, or a resume at start). `continued`: the same user after an expiry. */
  started?(continued: boolean): void
  /** Sign-out begins; the old session's state is still there. */
  ending?(): void
  /** The cloud refused the token; the session turns `expired` next. */
  expired?(): void
}

export interface AccountOptions {
  dataDir: string
  clock: Clock
  keychain: Keychain
  emit: EventSink
  warn(id: string, message: string): void
  /** Takes a warning back. */
  unwarn?(id: string): void
  log?: CoreLog | undefined
  /**
   * The shell's notebook windows (its Platform): after the same user signs in again they get the
   * new cookie; before a sign-out they close and their sign-in is cleared (false: a page with
   * unsaved work made the user choose to stay signed in; absent: no notebook windows).
   */
  notebooks: Pick<Platform, 'refreshNotebookCookies' | 'endNotebookSession'>
  /** A shell's `--base-url`, or a test's emulator: this API instead of the embedded Sandbox. */
  baseUrlOverride?: string | undefined
  cloudClientFactory?: CloudClientFactory | undefined
  /** Proxies and TLS trust for the cloud's API (network/network-route.ts). */
  network?: NetworkRoute | undefined
  startEmulator?: StartEmulator | undefined
  reach?: ReachFactory | undefined
}

export class Account {
  private readonly profilesStore: ProfilesStore
  private readonly session: Session
  private readonly gate: ReloginGate
  private readonly clients: CloudClients
  private readonly listeners = new Set<SessionListener>()
  /** The last expiry's forgetting of a remembered session (keychain, profiles.json). */
  private expiring: Promise<void> = Promise.resolve()
  private sandboxRunning: RunningSandbox | undefined
  private sandboxStarting: Promise<RunningSandbox> | undefined

  constructor(private readonly options: AccountOptions) {
    const { clock, log, emit } = options
    this.profilesStore = new ProfilesStore(options.dataDir)
    this.session = new Session({
      clock,
      keychain: options.keychain,
      profiles: this.profilesStore,
      events: {
        changed: (state) => {
          log?.info(`session ${state.status}`, { profileId: state.profileId, remembered: state.remembered, keychain: state.keychain })
          emit('session', state)
        },
        expiring: (expiresAt) => emit('session.expiring', { expiresAt }),
        warning: options.warn,
        ...(options.unwarn ? { unwarn: options.unwarn } : {})
      },
      originOf: (profileId) => this.originOf(profileId)
    })
    this.clients = new CloudClients({
      token: () => this.session.accessToken(),
      apiKey: () => this.session.apiKey(),
      now: () => clock.now(),
      factory: options.cloudClientFactory,
      network: options.network
    })
    this.gate = new ReloginGate({
      session: this.session,
      isNotLoggedIn: (error) => toErrorInfo(error).kind === 'not-logged-in',
      expire: (pending) => this.expire(pending)
    })
  }

  /** Returns a function that stops listening. */
  listen(listener: SessionListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * First at start, quickly: the saved profiles (the window's first questions wait for them).
   * Told as `profiles`: the tray's first menu follows it (it names the profile).
   */
  async loadProfiles(): Promise<void> {
    const profilesWarning = await this.profilesStore.load()
    if (profilesWarning) this.options.warn('profiles-invalid', profilesWarning)
    this.session.followSelection(this.profilesStore.get().selectedId)
    this.options.emit('profiles', this.profiles())
  }

  /**
   * Then: the Sandbox if selected, and a remembered session. The keychain is asked only when a
   * session was remembered (a locked keyring must not hold up a first launch).
   */
  async start(): Promise<void> {
    const { warn, log } = this.options
    await this.clients.load()
    const pointer = this.profilesStore.get().remembered
    if ((pointer?.profileId ?? this.profilesStore.get().selectedId) === SANDBOX_PROFILE_ID) {
      try {
        await this.ensureSandbox()
      } catch (error) {
        warn('sandbox', (error as Error).message)
      }
    }
    if (await this.session.resume()) {
      log?.secrets.add(this.session.accessToken())
      log?.secrets.add(this.session.apiKey())
      this.tell((listener) => listener.started?.(false))
    }
  }

  /** Quitting: no more expiry timers; commands waiting for a re-login end with their error. */
  stop(): void {
    this.session.dispose()
    this.gate.cancelAll()
  }

  /** After stop(): an expiry still forgetting the remembered session, the cloud clients' connections, then the Sandbox. */
  async close(): Promise<void> {
    await this.expiring
    await this.clients.closeAll()
    await this.sandboxRunning?.close()
    this.sandboxRunning = undefined
    this.sandboxStarting = undefined
  }

  // ------------------------------------------------------------ the session

  state(): SessionState {
    return this.session.state()
  }

  /** Main-only: never put it in a result, event, log or error. */
  accessToken(): string | undefined {
    return this.session.accessToken()
  }

  /** An API-key session without a notebook token yet: notebook pages need the password once (notebookSignIn). */
  needsNotebookPassword(): boolean {
    const state = this.session.state()
    return state.status === 'signed-in' && state.method === 'api-key' && this.session.accessToken() === undefined
  }

  /**
   * Who the session belongs to, as `profileId/username` (what per-account files such as the cost
   * guard's rules key on); undefined while signed out. An expired session keeps its account.
   */
  accountKey(): string | undefined {
    const state = this.session.state()
    return state.status === 'signed-out' ? undefined : `${state.profileId}/${state.username ?? ''}`
  }

  async login(input: LoginInput): Promise<SessionState> {
    const { profile, before, origin } = await this.prepareSignIn(input.profileId)
    const result = await this.clients.for(profile).login({
      username: input.username,
      password: input.password,
      rememberMe: input.rememberMe
    })
    const continued = await this.accepted(input, before)
    // From here on every log line scrubs this token, whatever carries it.
    this.options.log?.secrets.add(result.accessToken)
    const state = await this.session.loggedIn(input, result, origin)
    if (continued) {
      void this.options.notebooks.refreshNotebookCookies(input.profileId, result.accessToken).catch(() => undefined)
    }
    return this.started(state, continued)
  }

  /**
   * Signs in with a console API key: the cloud is asked first whether it takes the key, so a
   * mistyped key is said at once, on the form, and never becomes a session.
   */
  async loginWithKey(input: KeyLoginInput): Promise<SessionState> {
    const { profile, before, origin } = await this.prepareSignIn(input.profileId)
    try {
      await this.clients.checkApiKey(profile, input.apiKey)
    } catch (error) {
      if (isCloudError(error) && error.kind === 'not-logged-in') {
        throw new CloudError(
          'bad-credentials',
          'The cloud refused this API key. Check that you copied all of it, or make a new key in the HPC-AI console.',
          { ...(error.status !== undefined ? { status: error.status } : {}) }
        )
      }
      throw error
    }
    const continued = await this.accepted(input, before)
    this.options.log?.secrets.add(input.apiKey)
    return this.started(await this.session.keyLoggedIn(input, origin), continued)
  }

  /** Before a sign-in call: the profile (its Sandbox started), the session as it was, and where the call goes. */
  private async prepareSignIn(profileId: string): Promise<{ profile: Profile; before: SessionState; origin: string | undefined }> {
    const found = this.findProfile(profileId)
    if (!found) throw new AppError('bad-input', 'That profile no longer exists. Pick another one.', { field: 'profileId' })
    if (found.builtIn === 'sandbox') await this.ensureSandbox()
    await this.clients.load()
    // Looked up again: the Sandbox's address is known only once it runs.
    return { profile: this.findProfile(profileId)!, before: this.session.state(), origin: this.originOf(profileId) }
  }

  /** The cloud took the credential: the profile is selected; answers whether the same user continues after an expiry. */
  private async accepted(input: { profileId: string; username: string }, before: SessionState): Promise<boolean> {
    const file = this.profilesStore.get()
    if (file.selectedId !== input.profileId) await this.profilesStore.update((current) => selectProfile(current, input.profileId))
    return before.status === 'expired' && before.profileId === input.profileId && before.username === input.username
  }

  /** A session began: the rest of main starts, and commands waiting for it run again. */
  private started(state: SessionState, continued: boolean): SessionState {
    this.tell((listener) => listener.started?.(continued))
    this.gate.release(state)
    return state
  }

  /**
   * On a key session: the password, once, for the token notebook pages need (they accept only
   * the AccessToken cookie). The API keeps using the key.
   */
  async notebookSignIn(password: string): Promise<SessionState> {
    const state = this.session.state()
    if (state.status !== 'signed-in' || state.method !== 'api-key' || state.username === undefined) {
      throw new AppError('not-allowed', 'Only a session signed in with an API key asks for the password for notebooks.')
    }
    const result = await this.clients.for(this.currentProfile()).login({ username: state.username, password })
    this.options.log?.secrets.add(result.accessToken)
    const after = await this.session.notebookLoggedIn(result)
    // Notebook windows already open get the new cookie.
    void this.options.notebooks.refreshNotebookCookies(state.profileId, result.accessToken).catch(() => undefined)
    return after
  }

  async logout(): Promise<SessionState> {
    // Notebook windows end with the session; one with unsaved work may keep the user signed in.
    const { notebooks } = this.options
    if (notebooks.endNotebookSession && !(await notebooks.endNotebookSession(this.session.currentProfileId))) return this.session.state()
    this.tell((listener) => listener.ending?.())
    const state = await this.session.logout()
    this.gate.release(state)
    return state
  }

  /**
   * The cloud refused the token: the session expires (if it was live) and the windows are told,
   * naming the command that waits for a re-login (null: none waits).
   */
  async expire(pending: CommandName | null): Promise<void> {
    const wasLive = this.session.state().status === 'signed-in'
    if (wasLive) {
      this.tell((listener) => listener.expired?.())
      // The watcher starts an expiry without waiting for it: close() waits for its files.
      const expiring = this.session.expire().then(() => undefined)
      this.expiring = expiring.catch(() => undefined)
      await expiring
    }
    if (wasLive || pending !== null) this.options.emit('session.expired', { pending })
  }

  /** Runs a command; one that meets an expired token waits for a re-login and runs once more. */
  run<T>(command: CommandName, attempt: () => Promise<T>): Promise<T> {
    return this.gate.run(command, attempt)
  }

  // ------------------------------------------------------------ the cloud

  /** The cloud client of the session's profile. Throws AppError `no-session` when signed out. */
  cloud(): CloudClient {
    if (this.session.state().status === 'signed-out') {
      throw new AppError('no-session', 'You are signed out. Sign in to continue.')
    }
    return this.client()
  }

  /** The current profile's client, whatever the session's state (the watcher polls only while signed in). */
  client(): CloudClient {
    return this.clients.for(this.currentProfile())
  }

  // ------------------------------------------------------------ profiles

  profiles(): ProfilesState {
    return profilesState(this.profilesStore.get(), this.sandboxUrl(), this.sandboxRunning?.access)
  }

  async saveProfile(input: ProfileInput): Promise<ProfilesState> {
    const before = this.profilesStore.get()
    const after = saveProfile(before, input)
    // A new address for the profile you are signed in to: sign out before anything can poll it.
    const embeddedSandbox = this.options.baseUrlOverride === undefined
    if (editEndsSession({ session: this.session.state(), before, after, sandboxUrl: this.sandboxUrl(), embeddedSandbox })) {
      await this.logout()
      this.options.warn(ADDRESS_CHANGED_WARNING_ID, addressChangedMessage(input.name.trim()))
    }
    // Made again on the file as it is now: a sign-in meanwhile may have changed what it remembers.
    await this.profilesStore.update((current) => ({ ...saveProfile(current, input), remembered: current.remembered }))
    return this.profiles()
  }

  async removeProfile(id: string): Promise<ProfilesState> {
    if (this.session.state().status !== 'signed-out' && this.session.currentProfileId === id) {
      throw new AppError('not-allowed', 'Sign out of this profile before removing it.')
    }
    await this.profilesStore.update((current) => removeProfile(current, id))
    this.session.followSelection(this.profilesStore.get().selectedId)
    return this.profiles()
  }

  async selectProfile(id: string): Promise<ProfilesState> {
    await this.profilesStore.update((current) => selectProfile(current, id))
    this.session.followSelection(id)
    if (id === SANDBOX_PROFILE_ID) await this.ensureSandbox()
    return this.profiles()
  }

  /** The session's profile (the selected one while signed out). */
  currentProfile(): Profile {
    const profile = this.findProfile(this.session.currentProfileId) ?? this.findProfile(SANDBOX_PROFILE_ID)
    if (!profile) throw new AppError('internal', 'No profile is selected.')
    return profile
  }

  /** The session's profile name, for the tray; empty when it no longer exists. */
  profileName(): string {
    return this.findProfile(this.session.currentProfileId)?.name ?? ''
  }

  // ------------------------------------------------------------ the Sandbox

  /** The images the Sandbox comes with (empty for other profiles, or before it runs). */
  sandboxImages(profileId: string): { imageId: string; name: string }[] {
    return profileId === SANDBOX_PROFILE_ID ? (this.sandboxRunning?.images ?? []) : []
  }

  /** Main-only: the console API key of an API-key session; never in a result, event, log or error. */
  apiKey(): string | undefined {
    return this.session.apiKey()
  }

  /** Set while the Sandbox profile is the session's and its emulator runs. */
  /** The Sandbox while it is the profile in use and runs; else a refusal in the user's words. */
  runningSandbox(): RunningSandbox {
    if (!this.sandboxRunning) throw new AppError('not-allowed', 'The Sandbox is not running here, so it cannot do this.')
    return this.sandboxRunning
  }

  sandbox(): SandboxInfo | undefined {
    return this.sandboxRunning && this.session.currentProfileId === SANDBOX_PROFILE_ID ? this.sandboxRunning.info : undefined
  }

  private sandboxUrl(): string {
    return this.options.baseUrlOverride ?? this.sandboxRunning?.baseUrl ?? ''
  }

  private async ensureSandbox(): Promise<void> {
    const { options } = this
    if (options.baseUrlOverride !== undefined || this.sandboxRunning) return
    const start: StartEmulator = options.startEmulator ?? startSandboxEmulator
    this.sandboxStarting ??= startSandbox({ dataDir: options.dataDir, start, ...(options.reach ? { reach: options.reach } : {}) })
    try {
      this.sandboxRunning = await this.sandboxStarting
      this.options.emit('profiles', this.profiles())
    } catch (error) {
      this.sandboxStarting = undefined
      throw new AppError('internal', `The Sandbox could not start: ${(error as Error).message}`, { cause: error })
    }
  }

  /** Where a session on this profile sends its token (session-origin.ts). */
  private originOf(profileId: string): string | undefined {
    return sessionOrigin(this.findProfile(profileId), this.options.baseUrlOverride === undefined)
  }

  private findProfile(id: string): Profile | undefined {
    return allProfiles(this.profilesStore.get(), this.sandboxUrl()).find((profile) => profile.id === id)
  }

  private tell(call: (listener: SessionListener) => void): void {
    for (const listener of this.listeners) call(listener)
  }
}
