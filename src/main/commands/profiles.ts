/** Profiles: which cloud to sign in to (built-ins and the user's own deployments). */
import type { ProfileInput, ProfilesState } from '../../shared/contract'
import type { CommandGroup } from './dispatcher'

/** The account's profile book (account/account.ts). */
export interface ProfileBook {
  profiles(): ProfilesState
  saveProfile(input: ProfileInput): Promise<ProfilesState>
  removeProfile(id: string): Promise<ProfilesState>
  selectProfile(id: string): Promise<ProfilesState>
}

export function profileCommands(book: ProfileBook): CommandGroup<'profiles.get' | 'profiles.save' | 'profiles.remove' | 'profiles.select'> {
  return {
    handlers: {
      'profiles.get': async () => book.profiles(),
      'profiles.save': (input) => book.saveProfile(input),
      'profiles.remove': ({ id }) => book.removeProfile(id),
      'profiles.select': ({ id }) => book.selectProfile(id)
    }
  }
}
