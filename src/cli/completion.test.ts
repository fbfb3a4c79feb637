/**
 * The completion scripts the built `cloud-tray completion SHELL` prints, run in the real shells:
 * bash (its completion function driven as bash drives it), fish (`complete -C`), zsh (Tab
 * pressed at a real interactive prompt). Instance names come from `cloud-tray list --names --all`, here a
 * stand-in on the PATH answering three names, one with a space.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as pty from 'node-pty'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { skipBecause } from '../shared/node/testing/platform-support'
import { buildCli } from './testing/built-cli'

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0
/** True to skip, after printing why (CI installs both shells: .ci/run). */
const shellMissing = (shell: string): boolean =>
  skipBecause(
    has(shell) ? undefined : `${shell} is not installed (on Debian or Ubuntu: sudo apt-get install ${shell})`,
    `${shell} completion`
  )
for (const shell of ['zsh', 'fish'])
  if (!has(shell)) console.log(`completion: skipping ${shell}: it is not installed (.ci/run installs it)`)

describe('shell completion', () => {
  let dir: string
  let stub: string
  const script = (shell: string): string => {
    const path = join(dir, `completion.${shell}`)
    writeFileSync(path, execFileSync(process.execPath, [buildCli(), 'completion', shell], { encoding: 'utf8' }))
    return path
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ct-completion-'))
    // The command the scripts call for names: the app's answer, without an app.
    stub = join(dir, 'cloud-tray')
    writeFileSync(stub, `#!/bin/sh\nif [ "$*" = "list --names --all" ]; then printf 'train-a\\ntrain b\\nbox\\n'; fi\n`)
    chmodSync(stub, 0o755)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  function bash(words: string[]): string[] {
    const file = script('bash')
    const line = `source '${file}'; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cloud_tray; printf '%s\\n' "\${COMPREPLY[@]}"`
    return execFileSync('bash', ['-c', line], { encoding: 'utf8', cwd: dir }).split('\n').filter(Boolean)
  }

  it('bash: commands, each command’s options, instance names (quoted), cp’s NAME: and the shells', () => {
    expect(bash([stub, ''])).toEqual([
      'list',
      'status',
      'balance',
      'cost',
      'launch',
      'stop',
      'terminate',
      'ssh',
      'tunnel',
      'cp',
      'watch',
      'completion'
    ])
    expect(bash([stub, 'li'])).toEqual(['list'])
    expect(bash([stub, 'list', '--'])).toEqual(['--start', '--json', '--all', '--names', '--help'])
    expect(bash([stub, 'ssh', 'tr'])).toEqual(['train-a', 'train\\ b'])
    expect(bash([stub, 'stop', ''])).toEqual(['train-a', 'train\\ b', 'box'])
    expect(bash([stub, 'cp', 'bo'])).toEqual(['box:'])
    expect(bash([stub, 'completion', ''])).toEqual(['bash', 'zsh', 'fish'])
  })

  it.skipIf(shellMissing('fish'))('fish: commands with their descriptions, options, and instance names', () => {
    const file = script('fish')
    const complete = (line: string): string[] =>
      execFileSync('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line}'`], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${dir}:${process.env['PATH']}` }
      })
        .split('\n')
        .filter(Boolean)
    expect(complete('cloud-tray ')).toContain('ssh\ta shell or a command on an instance, over the app’s connection')
    expect(complete('cloud-tray list --')).toEqual(
      expect.arrayContaining(['--json\tprint JSON for scripts (fields: see the README)', '--all\talso list stopped and released instances'])
    )
    expect(complete('cloud-tray ssh tr').sort()).toEqual(['train b', 'train-a'])
    expect(complete('cloud-tray cp b')).toContain('box:')
  })

  it.skipIf(shellMissing('zsh'))('zsh: parses, registers with compinit, and completes an instance name at a real prompt', async () => {
    const file = script('zsh')
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0)
    const registered = execFileSync(
      'zsh',
      [
        '-f',
        '-c',
        `autoload -Uz compinit && compinit -u -d '${join(dir, 'zcompdump')}'; source '${file}'; print -r -- $_comps[cloud-tray]`
      ],
      {
        encoding: 'utf8'
      }
    )
    expect(registered.trim()).toBe('_cloud_tray')

    // zsh completes only in its line editor: a real interactive zsh on a pseudo-terminal, Tab pressed.
    const term = pty.spawn('zsh', ['-f', '-i'], {
      cols: 120,
      rows: 20,
      cwd: dir,
      env: { PATH: `${dir}:${process.env['PATH']}`, HOME: dir, TERM: 'xterm' }
    })
    let output = ''
    term.onData((data) => (output += data))
    try {
      term.write(`PS1='> '; autoload -Uz compinit && compinit -u -d '${join(dir, 'zcompdump2')}'; source '${file}'; print ready-$((1+1))\r`)
      await until(() => output.includes('ready-2'))
      output = ''
      term.write('cloud-tray status train-\t')
      await until(() => output.includes('train-a'))
      expect(output).toContain('cloud-tray status train-a')
    } finally {
      term.kill()
    }
  })
})

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the shell')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
