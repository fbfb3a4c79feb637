/**
 * The questions the app's SSH connection asks this command line (they go to the client that is
 * waiting: contract-ssh.ts `ssh.prompt`), answered at the user's terminal the way OpenSSH asks
 * them, or, where nobody can answer, refused with what to do instead.
 */
import type { PromptAnswer, SshPrompt } from '../../shared/contract-ssh'
import type { AppClient } from '../app-client'
import { AskCancelled, askLine, canAsk } from '../ask'
import type { Io } from '../output'
import { shown } from '../output'

export interface PromptOutcome {
  answer: PromptAnswer
  /** Said on stderr when the prompt was refused: why the connection will fail and what to do. */
  why?: string
}

const hostOf = (host: string, port: number): string => (port === 22 ? shown(host) : `[${shown(host)}]:${port}`)

export async function answerPrompt(io: Io, prompt: SshPrompt, instanceName: string): Promise<PromptOutcome> {
  const interactive = canAsk(io)
  switch (prompt.kind) {
    case 'host-key': {
      const fingerprint = shown(prompt.fingerprint)
      if (!interactive) {
        return {
          answer: { kind: 'host-key', decision: 'cancel' },
          why: `The host key of ${hostOf(prompt.host, prompt.port)} (${shown(prompt.keyType)} ${fingerprint}) is not trusted yet, and nobody can check it here. Run \`cloud-tray ssh ${instanceName}\` in a terminal, or open a terminal to it in Cloud Tray once, to check and accept it.`
        }
      }
      io.err.write(
        `The authenticity of host '${hostOf(prompt.host, prompt.port)}' can't be established.\n` +
          `${shown(prompt.keyType).replace(/^ssh-/, '').toUpperCase()} key fingerprint is ${fingerprint}.\n`
      )
      let question = 'Are you sure you want to continue connecting (yes/no/[fingerprint])? '
      for (;;) {
        const reply = (await askLine(io, question)).trim()
        if (reply === 'yes' || reply === prompt.fingerprint) return { answer: { kind: 'host-key', decision: 'accept-and-remember' } }
        if (reply === 'no') return { answer: { kind: 'host-key', decision: 'cancel' }, why: 'Host key verification failed.' }
        question = "Please type 'yes', 'no' or the fingerprint: "
      }
    }
    case 'host-key-changed':
      return {
        answer: { kind: 'cancel' },
        why:
          `The host key of ${hostOf(prompt.host, prompt.port)} has changed: it was ${shown(prompt.oldFingerprint)} (${shown(prompt.oldKeyType)}), ` +
          `it is now ${shown(prompt.newFingerprint)} (${shown(prompt.keyType)}). Someone could be in the middle, so Cloud Tray did not connect. ` +
          `If you know why it changed (the instance was recreated), remove the old key from ${shown(prompt.knownHostsFile)} in Cloud Tray's terminal, then try again.`
      }
    case 'passphrase': {
      if (!interactive) {
        return {
          answer: { kind: 'cancel' },
          why: `Your key ${shown(prompt.keyFile)} needs its passphrase, and nobody can type it here: run this in a terminal, or open a terminal in Cloud Tray once (the app keeps the passphrase until it quits).`
        }
      }
      if (prompt.retry) io.err.write('That passphrase did not open the key.\n')
      const value = await askLine(io, `Enter passphrase for key '${shown(prompt.keyFile)}': `, true)
      return value === ''
        ? { answer: { kind: 'cancel' }, why: 'No passphrase was given.' }
        : { answer: { kind: 'secret', values: [value] } }
    }
    case 'password':
    case 'keyboard-interactive': {
      if (!interactive) {
        return {
          answer: { kind: 'cancel' },
          why: `${shown(prompt.username)}@${shown(prompt.host)} asks for a password, and nobody can type it here: run this in a terminal.`
        }
      }
      if (prompt.instructions) io.err.write(`${shown(prompt.instructions)}\n`)
      const values: string[] = []
      for (const question of prompt.prompts) {
        values.push(
          await askLine(io, shown(question.prompt) || `${shown(prompt.username)}@${shown(prompt.host)}'s password: `, !question.echo)
        )
      }
      return { answer: { kind: 'secret', values } }
    }
  }
}

/** What the prompts answered so far leave to say. */
export interface PromptState {
  /** Why a prompt was refused: said instead of the connection's own failure. */
  refusal?: string
  /** The user pressed Ctrl-C at a question. */
  cancelled: boolean
}

/**
 * Answers every prompt the app sends this command line, at the terminal, until `off` is called;
 * `changed` hears each answer (a refusal or a Ctrl-C the caller acts on).
 */
export function answerPrompts(
  app: AppClient,
  io: Io,
  instanceName: string,
  changed: () => void = () => undefined
): { state: PromptState; off: () => void } {
  const state: PromptState = { cancelled: false }
  const off = app.on('ssh.prompt', (prompt) => {
    void answerPrompt(io, prompt, instanceName).then(
      async (outcome) => {
        if (outcome.why) state.refusal = outcome.why
        await app.invoke('ssh.answer', { promptId: prompt.promptId, answer: outcome.answer })
        changed()
      },
      async (error: unknown) => {
        if (!(error instanceof AskCancelled)) throw error
        state.cancelled = true
        changed()
        await app.invoke('ssh.answer', { promptId: prompt.promptId, answer: { kind: 'cancel' } })
      }
    )
  })
  return { state, off }
}
