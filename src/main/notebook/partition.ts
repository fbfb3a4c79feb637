/**
 * One Electron session partition per profile: a notebook of the Sandbox never shares cookies or
 * storage with one of a real account, and `persist:` keeps a notebook's own local storage
 * (Jupyter keeps layout there) across restarts while the user stays signed in. The token cookie
 * itself is a session cookie. Signing out (or another account signing in) removes the cookie
 * and clears the partition's storage (notebook-window-adapter.ts, endAccess).
 */
export function notebookPartition(profileId: string): string {
  // Partition names are free text to Electron, but keep them to a safe alphabet; distinct ids
  // stay distinct because the escape is reversible (%XX).
  return `persist:notebook-${profileId.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`
}
