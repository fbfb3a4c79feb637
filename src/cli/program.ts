/**
 * The command line's commands and options (commander), each with its help, and the completion
 * spec taken from them. Actions load their module when run, so `cloud-tray list` reads no code of
 * `cp` or `ssh`.
 */
import { Argument, Command, type Option } from 'commander'
import type { CliContext } from './context'
import type { Io } from './output'
import type { ArgumentKind, CompletionSpec } from './completion'
import { EXIT } from './exit-codes'

export interface ProgramHooks {
  /** Where help and commander's own errors are written. */
  io: Io
  /** The context of a run; `start`: --start was given (before or after the subcommand). */
  context: (start: boolean) => CliContext
  /** Where an action's exit code goes. */
  exit: (code: number) => void
}

const EXIT_CODES_HELP = `
Exit codes:
  0    done
  1    failed (the network, the app, a file)
  2    usage: the command line was wrong, or a question needs --yes where nobody can answer
  3    Cloud Tray is signed out, or its session ended
  4    no instance, template or tunnel by that name or id
  5    refused by the cloud or the app (an invalid field, a stopped instance, no stock)
  6    the name matches several instances
  7    Cloud Tray is not running (or refused this command line)
  8    launch --wait: the instance did not reach Running
  130  interrupted (Ctrl-C)
  ssh: the remote command's own exit status; 255 when the connection failed or was lost`

const ARGUMENT_KIND = Symbol('argument kind')
type Tagged = Command & { [ARGUMENT_KIND]?: ArgumentKind }

export function version(): string {
  return typeof __CLOUD_TRAY_VERSION__ === 'string' ? __CLOUD_TRAY_VERSION__ : '0.0.0-dev'
}

export function buildProgram(hooks: ProgramHooks): Command {
  const program = new Command('cloud-tray')
    .description('The command line of Cloud Tray: your GPU instances through the running app, its sign-in, host keys and SSH connections.')
    .version(`cloud-tray ${version()}`, '-V, --version', 'print the version')
    .option('--start', 'start Cloud Tray in the tray if it is not running')
    .enablePositionalOptions()
    // Before any subcommand is added: they copy these settings when made. A usage error then
    // throws (main.ts makes it exit 2) instead of commander's own exit 1.
    .exitOverride()
    .configureOutput({ writeOut: (text) => hooks.io.out.write(text), writeErr: (text) => hooks.io.err.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
  // commander hands an action its arguments, its options, then the command itself.
  const run =
    <A extends unknown[]>(action: (context: CliContext, ...args: A) => Promise<number>) =>
    async (...args: [...A, Command]): Promise<void> => {
      const self = args.at(-1) as Command
      const start = self.optsWithGlobals<{ start?: boolean }>().start === true
      hooks.exit(await action(hooks.context(start), ...(args.slice(0, -1) as A)))
    }
  const command = (name: string, description: string, kind: ArgumentKind): Command => {
    const sub = program
      .command(name)
      .description(description)
      .option('--start', 'start Cloud Tray in the tray if it is not running') as Tagged
    sub[ARGUMENT_KIND] = kind
    return sub
  }

  command('list', 'instances with status, type, region, uptime and cost so far', 'none')
    .option('--json', 'print JSON for scripts (fields: see the README)')
    .option('-a, --all', 'also list stopped and released instances')
    .option('--names', 'print only the names, one a line')
    .action(
      run(async (context, options: { json?: boolean; all?: boolean; names?: boolean }) =>
        (await import('./commands/list')).listCommand(context, options)
      )
    )

  command('status', 'one instance in detail', 'instance')
    .argument('<instance>', 'its name (or the start of it) or its id')
    .option('--json', 'print JSON for scripts')
    .action(
      run(async (context, name: string, options: { json?: boolean }) =>
        (await import('./commands/status')).statusCommand(context, name, options)
      )
    )

  command('balance', 'the account balance, as the app last read it', 'none')
    .option('--json', 'print JSON for scripts')
    .action(run(async (context, options: { json?: boolean }) => (await import('./commands/money')).balanceCommand(context, options)))

  command('cost', 'what is billed now: burn rate and runway, as the tray shows them', 'none')
    .option('--json', 'print JSON for scripts')
    .action(run(async (context, options: { json?: boolean }) => (await import('./commands/money')).costCommand(context, options)))

  command('launch', 'launch an instance from a launch template (asks first, showing the price)', 'none')
    .requiredOption('--template <name>', 'the launch template (its name, or the start of it)')
    .option('--name <name>', 'the new instance’s name (default: the template’s)')
    .option('--wait', 'return once it is Running; the exit code says how it ended')
    .option('-y, --yes', 'do not ask')
    .action(
      run(async (context, options: { template: string; name?: string; wait?: boolean; yes?: boolean }) =>
        (await import('./commands/launch')).launchCommand(context, options)
      )
    )

  for (const [name, description] of [
    ['stop', 'stop an instance (asks first)'],
    ['terminate', 'delete an instance for good (asks you to type its name)']
  ] as const) {
    command(name, description, 'instance')
      .argument('<instance>', 'its name (or the start of it) or its id')
      .option('-y, --yes', 'do not ask')
      .action(
        run(async (context, instance: string, options: { yes?: boolean }) =>
          (await import('./commands/stop')).stopCommand(context, instance, options, name)
        )
      )
  }

  command('ssh', 'a shell or a command on an instance, over the app’s connection', 'instance')
    .argument('<instance>', 'its name (or the start of it) or its id')
    .argument('[command...]', 'a command to run instead of the login shell (put -- before it)')
    .option('-t', 'a terminal even for a command', false)
    .option('-T', 'no terminal, even for the login shell', false)
    .option('--print-config', 'print the Host block for ~/.ssh/config that Cloud Tray would write, and exit')
    .passThroughOptions()
    .addHelpText(
      'after',
      '\nExamples:\n  cloud-tray ssh train\n  cloud-tray ssh train -- nvidia-smi\n  tar c data | cloud-tray ssh train -- tar x'
    )
    .action(
      run(async (context, instance: string, words: string[], options: { t?: boolean; T?: boolean; printConfig?: boolean }) =>
        (await import('./commands/ssh')).sshCommand(context, instance, words, {
          tty: options.t,
          noTty: options.T,
          printConfig: options.printConfig
        })
      )
    )

  command('tunnel', 'forward a port of an instance to this computer, or list and stop tunnels', 'instance')
    .argument('[instance]', 'its name (or the start of it) or its id')
    .argument('[port]', 'PORT inside the instance, or PORT:LOCAL to choose the port here')
    .option('--list', 'list every tunnel')
    .option('--stop', 'stop the instance’s tunnels (or the one for PORT)')
    .option('--json', 'with --list: print JSON for scripts')
    .action(
      run(
        async (
          context,
          instance: string | undefined,
          port: string | undefined,
          options: { list?: boolean; stop?: boolean; json?: boolean }
        ) => (await import('./commands/tunnel')).tunnelCommand(context, instance, port, options)
      )
    )

  command('cp', 'copy files between this computer and an instance (NAME:path on one side)', 'files')
    .argument('<source>', 'a path here, or NAME:path on the instance (relative to its home folder)')
    .argument('<destination>', 'the same, the other way round')
    .option('-r, --recursive', 'copy folders with everything in them')
    .addHelpText('after', '\nExamples:\n  cloud-tray cp model.pt train:checkpoints/\n  cloud-tray cp -r train:outputs ./outputs')
    .action(
      run(async (context, source: string, destination: string, options: { recursive?: boolean }) =>
        (await import('./commands/cp')).cpCommand(context, source, destination, options)
      )
    )

  command('watch', 'print each status change, as the notifications say it, until Ctrl-C', 'none')
    .option('--json', 'one JSON object a line')
    .action(run(async (context, options: { json?: boolean }) => (await import('./commands/watch')).watchCommand(context, options)))

  const completion = program.command('completion') as Tagged
  completion[ARGUMENT_KIND] = 'shell'
  completion
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./completion')
      process.stdout.write(completionScript(shell, completionSpec(program)))
      hooks.exit(EXIT.ok)
    })
  return program
}

/** The completion scripts' view of the program. */
export function completionSpec(program: Command): CompletionSpec {
  const help = { flags: ['-h', '--help'], description: 'show help' }
  const optionsOf = (options: readonly Option[]) => [
    ...options
      .filter((option) => !option.hidden)
      .map((option) => ({
        flags: [option.short, option.long].filter((flag): flag is string => Boolean(flag)),
        description: option.description,
        ...(option.required || option.optional ? { value: true } : {})
      })),
    help
  ]
  return {
    program: program.name(),
    globalOptions: optionsOf(program.options),
    commands: program.commands.map((command) => ({
      name: command.name(),
      description: command.description(),
      options: optionsOf(command.options),
      argument: (command as Tagged)[ARGUMENT_KIND] ?? 'none'
    }))
  }
}
