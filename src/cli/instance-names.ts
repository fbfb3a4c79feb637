/**
 * An instance as the user names it on the command line: its id, its name, or the start of its
 * name when only one name starts so. A name several instances share, or a start several names
 * share, is refused with the matches listed (exit 6); none is "not found" (exit 4).
 */
import type { Instance } from '../shared/api'
import { statusWords } from '../shared/status-words'
import { CliError, EXIT } from './exit-codes'
import { shown } from './output'

const idOf = (instance: Instance): string => instance.instanceMetadata.instanceId
const nameOf = (instance: Instance): string => instance.instanceSpecInfo.name

const MAX_LISTED = 10

export function resolveInstance(instances: readonly Instance[], query: string): Instance {
  const byId = instances.find((instance) => idOf(instance) === query)
  if (byId) return byId
  const exact = instances.filter((instance) => nameOf(instance) === query)
  if (exact.length === 1) return exact[0]!
  const matches = exact.length > 1 ? exact : instances.filter((instance) => nameOf(instance).startsWith(query))
  if (matches.length === 1) return matches[0]!
  if (matches.length === 0) {
    throw new CliError(`No instance is named “${shown(query)}” or has that id. \`cloud-tray list --all\` shows them all.`, EXIT.notFound)
  }
  const listed = matches
    .slice(0, MAX_LISTED)
    .map((instance) => `  ${shown(nameOf(instance))}  ${idOf(instance)}  ${statusWords(instance.instanceRuntimeInfo.status)}`)
  if (matches.length > MAX_LISTED) listed.push(`  and ${matches.length - MAX_LISTED} more`)
  const what =
    exact.length > 1 ? `${matches.length} instances are named “${shown(query)}”` : `“${shown(query)}” matches ${matches.length} instances`
  throw new CliError(`${what}; give more of the name, or the id:\n${listed.join('\n')}`, EXIT.ambiguous)
}
