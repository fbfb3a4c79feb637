/**
 * A company proxy that asks for a user name and password (HTTP 407): main asks the window, the
 * window answers with what the user typed. The password goes one way only, window → main, in
 * `proxy.signIn`; no result or event carries it (contract.ts's rule).
 */

/** One proxy's question, as the window's dialog shows it. */
export interface ProxyQuestion {
  /** `host:port` of the proxy, as the app's route named it (shown quoted: it comes from settings and PAC files). */
  proxy: string
  /** The user name last given for this proxy (not a secret), so the dialog starts with it. */
  username: string
  /** The proxy refused the user name and password it was last given. */
  rejected: boolean
}

export interface ProxyAuthState {
  /** The proxy asking now; null when none is. One at a time: a second waits its turn. */
  asking: ProxyQuestion | null
}

export interface ProxySignInInput {
  proxy: string
  username: string
  password: string
  /** Keep them in the OS keychain (keyed by the proxy's host:port), not only until Cloud Tray quits. */
  remember: boolean
}

/** A sign-in the proxy accepted: kept for this run, and said here when the keychain could not keep it. */
export interface ProxySignedIn extends ProxyAuthState {
  /** "Remember" was ticked but the keychain could not be reached or refused: what to tell the user. */
  keychainProblem?: string
}

export interface ProxyCommands {
  'proxy.get': { input: void; result: ProxyAuthState }
  /** Checks the user name and password with the proxy; kept once it lets them through. */
  'proxy.signIn': { input: ProxySignInInput; result: ProxySignedIn }
  /** The user declined: that proxy is not asked about again for a while. */
  'proxy.cancel': { input: { proxy: string }; result: ProxyAuthState }
}

export interface ProxyEvents {
  'proxy.auth': ProxyAuthState
}
