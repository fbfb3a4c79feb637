/**
 * Whose notebook windows may stay open after a session change. A notebook window is signed in
 * as one account (its partition holds that account's cookie); when the app is no longer signed
 * in as that account, its windows and its partition's sign-in must go. Pure, with a table test;
 * index.ts applies it to the `session` events (a sign-out itself goes through the core, which
 * asks first when a page has unsaved work).
 */
import type { SessionState } from '../../shared/contract'

export interface NotebookOwner {
  profileId: string
  username: string
}

export interface NotebookAccess {
  /** The account notebook windows may now belong to. */
  owner: NotebookOwner | undefined
  /** A profile whose notebook windows and sign-in end now. */
  end?: string
}

export function notebookAccessAfter(owner: NotebookOwner | undefined, state: SessionState): NotebookAccess {
  if (state.status === 'signed-in' && state.username !== undefined) {
    const next = { profileId: state.profileId, username: state.username }
    const changed = owner !== undefined && (owner.profileId !== next.profileId || owner.username !== next.username)
    return changed ? { owner: next, end: owner.profileId } : { owner: next }
  }
  // Expired: the same account may sign in again, and its windows get the new cookie then.
  if (state.status === 'expired') return { owner }
  return owner ? { owner: undefined, end: owner.profileId } : { owner: undefined }
}
