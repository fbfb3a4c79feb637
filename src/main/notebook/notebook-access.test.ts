import { describe, expect, it } from 'vitest'
import type { SessionState } from '../../shared/contract'
import { notebookAccessAfter, type NotebookAccess, type NotebookOwner } from './notebook-access'

const state = (status: SessionState['status'], profileId = 'sandbox', username?: string): SessionState => ({
  status,
  profileId,
  ...(username ? { username } : {}),
  remembered: false,
  keychain: 'available'
})
const demo: NotebookOwner = { profileId: 'sandbox', username: 'demo' }

describe('notebookAccessAfter', () => {
  const table: [string, NotebookOwner | undefined, SessionState, NotebookAccess][] = [
    ['first sign-in', undefined, state('signed-in', 'sandbox', 'demo'), { owner: demo }],
    ['the same account again (after a re-login)', demo, state('signed-in', 'sandbox', 'demo'), { owner: demo }],
    ['expired: the windows wait for the same account', demo, state('expired', 'sandbox', 'demo'), { owner: demo }],
    [
      'another user of the same profile',
      demo,
      state('signed-in', 'sandbox', 'ada'),
      { owner: { profileId: 'sandbox', username: 'ada' }, end: 'sandbox' }
    ],
    ['another profile', demo, state('signed-in', 'hpc-ai', 'demo'), { owner: { profileId: 'hpc-ai', username: 'demo' }, end: 'sandbox' }],
    ['signed out', demo, state('signed-out'), { owner: undefined, end: 'sandbox' }],
    ['signed out with nothing open', undefined, state('signed-out'), { owner: undefined }]
  ]
  it.each(table)('%s', (_name, owner, next, expected) => {
    expect(notebookAccessAfter(owner, next)).toEqual(expected)
  })
})
