/**
 * Node module hooks (registered with `module.register` by register.ts): the specifiers in the
 * map resolve to the stand-ins instead of the real packages. Everything else loads as usual.
 */
interface ResolveResult {
  url: string
  shortCircuit?: boolean
}
type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>

let replacements: Record<string, string> = {}

export async function initialize(data: Record<string, string>): Promise<void> {
  replacements = data
}

export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve): Promise<ResolveResult> {
  const replacement = replacements[specifier]
  if (replacement) return { url: replacement, shortCircuit: true }
  return nextResolve(specifier, context)
}
