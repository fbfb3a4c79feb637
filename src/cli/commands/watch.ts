/**
 * `cloud-tray watch [--json]`: one line per status change the app sees, worded as its
 * notifications word them (src/shared/transition-words.ts), until Ctrl-C. `--json`: one object
 * per line (`at`, `id`, `name`, `from`, `to`, `kind`, `title`, `body`), for scripts.
 */
import type { Transition } from '../../shared/contract'
import { transitionWords } from '../../shared/transition-words'
import { connect, requireSignedIn, type CliContext } from '../app'
import { EXIT } from '../exit-codes'
import { shown } from '../output'

export function watchLine(t: Transition, at: Date, asJson: boolean): string {
  const words = transitionWords(t)
  if (asJson) {
    return `${JSON.stringify({ at: at.toISOString(), id: t.instanceId, name: t.name, from: t.from, to: t.to, kind: words.kind, title: words.title, ...(words.body ? { body: words.body } : {}) })}\n`
  }
  const time = at.toTimeString().slice(0, 8)
  return `${time}  ${shown(words.title)}${words.body ? ` — ${shown(words.body)}` : ''}\n`
}

export async function watchCommand(context: CliContext, options: { json?: boolean }): Promise<number> {
  const app = await connect(context)
  try {
    const { out, err } = context.io
    let finish!: (code: number) => void
    const done = new Promise<number>((resolve) => (finish = resolve))
    app.on('transitions', (transitions) => {
      const now = new Date()
      for (const transition of transitions) out.write(watchLine(transition, now, options.json === true))
    })
    app.on('session', (session) => {
      if (session.status === 'signed-in') return
      err.write(session.status === 'expired' ? 'Cloud Tray’s session ended: sign in again in the app.\n' : 'Cloud Tray was signed out.\n')
      finish(EXIT.notSignedIn)
    })
    void app.closed.then(() => {
      err.write('Cloud Tray quit.\n')
      finish(EXIT.notRunning)
    })
    // Ctrl-C is how watching ends: not a failure.
    process.once('SIGINT', () => finish(EXIT.ok))
    // Listening before the check answers, so nothing between the two is missed.
    app.subscribe('transitions', 'session')
    await requireSignedIn(app)
    if (err.isTTY && !options.json) err.write('Watching your instances; Ctrl-C stops.\n')
    return await done
  } finally {
    app.close()
  }
}
