/**
 * The terminal tabs that outlive the window (`terminals.*`): handlers over the SSH wing's saved
 * tabs (ssh/saved-tabs/saved-tabs.ts), each for the account signed in now.
 */
import type { SshWing } from '../ssh/ssh-wing'
import type { CommandGroup } from './dispatcher'

type TerminalsCommand = 'terminals.restore' | 'terminals.save' | 'terminals.saveScrollback'

export function terminalsCommands(wing: Pick<SshWing, 'savedTabs' | 'accountKey'>): CommandGroup<TerminalsCommand> {
  const { savedTabs } = wing
  return {
    handlers: {
      'terminals.restore': async () => savedTabs.restore(wing.accountKey()),
      'terminals.save': async (saved) => savedTabs.save(saved, wing.accountKey()),
      'terminals.saveScrollback': async ({ paneId, data }) => savedTabs.saveScrollback(paneId, data, wing.accountKey())
    }
  }
}
