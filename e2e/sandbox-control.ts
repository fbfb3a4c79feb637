/**
 * The Sandbox's control plane over HTTP, as a person (or a script) drives it with curl: the
 * address Settings shows and this run's secret from its file (README, "Control").
 */
import { readFile } from 'node:fs/promises'
import type { WebShell } from '../src/web/server'

export async function sandboxControl(shell: WebShell, route: string, body: unknown): Promise<unknown> {
  const access = shell.sandbox()
  const secret = (await readFile(access.controlSecretFile!, 'utf8')).trim()
  const answer = await fetch(`${access.controlUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  const json: unknown = await answer.json()
  if (!answer.ok) throw new Error(`${route} answered ${answer.status}: ${JSON.stringify(json)}`)
  return json
}
