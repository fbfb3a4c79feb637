/**
 * A token belongs to the origin that issued it. The session remembers where it signed in, and
 * the token is never sent anywhere else: editing the address of the profile you are signed in
 * to signs you out (the next poll would otherwise carry the token to the new host), and a
 * remembered token is resumed only against the origin it was issued by (stored beside the
 * keychain pointer in profiles.json).
 *
 * The origin is scheme://host:port, so a changed path on the same host keeps the session. The
 * embedded Sandbox listens on a new loopback port every run but is always the same emulator
 * with the same signing key: it has one stable origin of its own.
 */
import type { Profile, SessionState } from '../../shared/contract'
import { allProfiles, type ProfilesFile } from './profiles'

/** The embedded Sandbox emulator, whatever port it listens on this run. */
export const EMBEDDED_SANDBOX_ORIGIN = 'cloud-tray:embedded-sandbox'

/** Where a session on this profile sends its token; undefined when the profile has no usable address. */
export function sessionOrigin(profile: Profile | undefined, embeddedSandbox: boolean): string | undefined {
  if (!profile) return undefined
  if (profile.builtIn === 'sandbox' && embeddedSandbox) return EMBEDDED_SANDBOX_ORIGIN
  try {
    const origin = new URL(profile.baseUrl).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

export interface ProfileEdit {
  session: Pick<SessionState, 'status' | 'profileId'>
  before: ProfilesFile
  after: ProfilesFile
  sandboxUrl: string
  embeddedSandbox: boolean
}

/** True when saving `after` moves the profile of a live (or expired) session to another origin. */
export function editEndsSession(edit: ProfileEdit): boolean {
  if (edit.session.status === 'signed-out') return false
  const originIn = (file: ProfilesFile): string | undefined =>
    sessionOrigin(
      allProfiles(file, edit.sandboxUrl).find((p) => p.id === edit.session.profileId),
      edit.embeddedSandbox
    )
  return originIn(edit.before) !== originIn(edit.after)
}

export const ADDRESS_CHANGED_WARNING_ID = 'profile-address-changed'

/** Said when an edit signs the user out, so the sign-out does not look like a fault. */
export function addressChangedMessage(profileName: string): string {
  return `You were signed out of “${profileName}” because its address now points to another server. Sign in again to use it.`
}
