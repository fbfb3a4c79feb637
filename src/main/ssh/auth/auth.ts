/**
 * Authentication as an ssh2 `authHandler`: a fixed order of candidates (agent, key files,
 * keyboard-interactive, password), each offered only while the server still lists its method.
 * Encrypted keys ask for their passphrase (kept in memory for the app session, in `passphrases`);
 * a cancelled prompt stops the whole attempt.
 */
import ssh2, { type AnyAuthMethod, type AuthenticationType, type AuthHandlerMiddleware, type KeyboardInteractiveCallback } from 'ssh2'
import type { PromptAnswer } from '../../../shared/contract-ssh'
import type { PromptQuestion } from './prompts'
import { cutText, serverLines, visibleText } from '../../../shared/untrusted-text'

export type AuthCandidate =
  { kind: 'agent'; agent: string } | { kind: 'key'; path: string } | { kind: 'keyboard-interactive' } | { kind: 'password' }

export interface AuthOptions {
  host: string
  username: string
  candidates: AuthCandidate[]
  /** Reads a key file; null when there is none (missing files are simply skipped). */
  readKey: (path: string) => Promise<Buffer | null>
  /** Passphrases the user typed in this app session, by key file. */
  passphrases: Map<string, string>
  /**
   * Asks the user; absent for a background connection, which never asks: encrypted keys without
   * a passphrase typed earlier in this app session are skipped (and noted in `locked`), and
   * keyboard-interactive and password are not tried.
   */
  ask?: ((question: PromptQuestion) => Promise<PromptAnswer>) | undefined
  /** Background only: the encrypted keys skipped for want of their passphrase. */
  locked?: string[]
  /** Called when the user cancels a prompt: the connection is abandoned. */
  onCancel: () => void
  /** What was tried, for the failure message. */
  log?: (line: string) => void
}

const METHOD: Record<AuthCandidate['kind'], AuthenticationType> = {
  agent: 'publickey',
  key: 'publickey',
  'keyboard-interactive': 'keyboard-interactive',
  password: 'password'
}

const MAX_PASSPHRASE_TRIES = 3
// ssh2 is CommonJS: Node's ESM loader (tsx, the web shell) offers only its default export.
const { utils } = ssh2

/** The default order: agent, the settings key, the Sandbox key, then ~/.ssh's id_ed25519, id_ecdsa, id_rsa. */
export function authCandidates(input: { agent?: string; keyFiles: (string | null | undefined)[] }): AuthCandidate[] {
  const candidates: AuthCandidate[] = []
  if (input.agent) candidates.push({ kind: 'agent', agent: input.agent })
  const seen = new Set<string>()
  for (const path of input.keyFiles) {
    if (!path || seen.has(path)) continue
    seen.add(path)
    candidates.push({ kind: 'key', path })
  }
  candidates.push({ kind: 'keyboard-interactive' }, { kind: 'password' })
  return candidates
}

/** Keyboard-interactive questions a server may ask at once, and how much of its text is shown. */
const MAX_QUESTIONS = 8
const MAX_QUESTION = 200
const MAX_INSTRUCTIONS = 1_000

export function createAuthHandler(options: AuthOptions): AuthHandlerMiddleware {
  let index = 0
  const { username } = options
  const log = options.log ?? (() => {})

  // ssh2 accepts `false` ("no more methods") though its typings do not say so.
  type Next = (auth: AnyAuthMethod | false) => void
  const handler = (methodsLeft: AuthenticationType[] | null, _partialSuccess: boolean, next: Next): void => {
    void (async () => {
      while (index < options.candidates.length) {
        const candidate = options.candidates[index++] as AuthCandidate
        // Before the first failure the server has not said what it allows: everything is possible.
        if (methodsLeft && !methodsLeft.includes(METHOD[candidate.kind])) continue
        if (!options.ask && (candidate.kind === 'keyboard-interactive' || candidate.kind === 'password')) continue
        switch (candidate.kind) {
          case 'agent':
            log(`trying the SSH agent`)
            return next({ type: 'agent', username, agent: candidate.agent })
          case 'key': {
            const key = await loadKey(options, candidate.path)
            if (key === 'cancelled') return cancel(next)
            if (!key) continue
            log(`trying key ${candidate.path}`)
            return next({ type: 'publickey', username, key: key.data, ...(key.passphrase ? { passphrase: key.passphrase } : {}) })
          }
          case 'keyboard-interactive':
            return next({
              type: 'keyboard-interactive',
              username,
              prompt: (_name, instructions, _lang, prompts, finish: KeyboardInteractiveCallback) => {
                // The server writes these questions: a handful, each a line of visible text (#21).
                if (prompts.length === 0 || prompts.length > MAX_QUESTIONS || !options.ask) return finish([])
                const shownInstructions = serverLines(instructions ?? '', MAX_INSTRUCTIONS).trim()
                void options
                  .ask({
                    kind: 'keyboard-interactive',
                    host: options.host,
                    username,
                    ...(shownInstructions ? { instructions: shownInstructions } : {}),
                    prompts: prompts.map((item) => ({
                      prompt: cutText(visibleText(item.prompt.slice(0, MAX_QUESTION * 2)), MAX_QUESTION),
                      echo: item.echo ?? false
                    }))
                  })
                  .then((answer) => {
                    if (answer.kind !== 'secret') {
                      options.onCancel()
                      return finish([])
                    }
                    finish(answer.values)
                  })
              }
            })
          case 'password': {
            if (!options.ask) continue
            const answer = await options.ask({
              kind: 'password',
              host: options.host,
              username,
              prompts: [{ prompt: `Password for ${username}@${options.host}:`, echo: false }]
            })
            if (answer.kind !== 'secret' || answer.values[0] === undefined) return cancel(next)
            return next({ type: 'password', username, password: answer.values[0] })
          }
        }
      }
      next(false)
    })().catch(() => next(false))
  }
  return handler as AuthHandlerMiddleware

  function cancel(next: Next): void {
    index = options.candidates.length
    options.onCancel()
    next(false)
  }
}

type LoadedKey = { data: Buffer; passphrase?: string }

/** Reads and, if encrypted, unlocks a key. null: no usable key there; 'cancelled': the user said no. */
async function loadKey(options: AuthOptions, path: string): Promise<LoadedKey | null | 'cancelled'> {
  const data = await options.readKey(path)
  if (!data) return null
  const plain = utils.parseKey(data)
  if (!(plain instanceof Error)) return { data }
  if (!/passphrase/i.test(plain.message)) {
    options.log?.(`skipping ${path}: not a private key ssh2 can read`)
    return null
  }
  const remembered = options.passphrases.get(path)
  if (remembered !== undefined && !(utils.parseKey(data, remembered) instanceof Error)) return { data, passphrase: remembered }
  if (!options.ask) {
    options.locked?.push(path)
    return null
  }
  for (let attempt = 0; attempt < MAX_PASSPHRASE_TRIES; attempt++) {
    const answer = await options.ask({ kind: 'passphrase', keyFile: path, retry: attempt > 0 })
    if (answer.kind !== 'secret' || answer.values[0] === undefined) return 'cancelled'
    const passphrase = answer.values[0]
    if (!(utils.parseKey(data, passphrase) instanceof Error)) {
      options.passphrases.set(path, passphrase)
      return { data, passphrase }
    }
  }
  options.log?.(`skipping ${path}: wrong passphrase`)
  return null
}
