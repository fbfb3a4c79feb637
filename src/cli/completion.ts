/**
 * Shell completion for bash, zsh and fish (`cloud-tray completion SHELL`), written from the
 * program's own commands and options (program.ts) so it never falls behind them. Instance names
 * come from the running app (`cloud-tray list --names --all`), quietly nothing when it is not
 * running; `cp` completes `NAME:` and local files.
 */

/** What a command's positional arguments complete to. */
export type ArgumentKind = 'instance' | 'shell' | 'files' | 'none'

export interface CompletionOption {
  /** Long and short flags, e.g. `--json`, `-r`. */
  flags: string[]
  description: string
  /** It takes a value (`--template NAME`). */
  value?: boolean
}

export interface CompletionCommand {
  name: string
  description: string
  /** Its own options, help included. */
  options: CompletionOption[]
  argument: ArgumentKind
}

export interface CompletionSpec {
  program: string
  /** Before a subcommand. */
  globalOptions: CompletionOption[]
  commands: CompletionCommand[]
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

export function completionScript(shell: Shell, spec: CompletionSpec): string {
  switch (shell) {
    case 'bash':
      return bashScript(spec)
    case 'zsh':
      return zshScript(spec)
    case 'fish':
      return fishScript(spec)
  }
}

const quoteSingle = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`
const flagsOf = (options: { flags: string[] }[]): string => options.flatMap((option) => option.flags).join(' ')
const fn = (spec: CompletionSpec): string => `_${spec.program.replace(/[^A-Za-z0-9]/g, '_')}`

function bashScript(spec: CompletionSpec): string {
  const name = fn(spec)
  const cases = spec.commands
    .map((command) => `    ${command.name}) opts=${quoteSingle(flagsOf(command.options))}; kind=${command.argument} ;;`)
    .join('\n')
  return `# ${spec.program} completion for bash. Load it with:  source <(${spec.program} completion bash)
# or keep it: ${spec.program} completion bash > ~/.local/share/bash-completion/completions/${spec.program}
${name}_names() {
  "\${COMP_WORDS[0]}" list --names --all 2>/dev/null
}
${name}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd="" i opts kind line
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in -*) ;; *) cmd=\${COMP_WORDS[i]}; break ;; esac
  done
  COMPREPLY=()
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W ${quoteSingle(flagsOf(spec.globalOptions))} -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -W ${quoteSingle(spec.commands.map((command) => command.name).join(' '))} -- "$cur")
    fi
    return
  fi
  case $cmd in
${cases}
    *) return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    return
  fi
  case $kind in
    instance)
      while IFS= read -r line; do
        [[ $line == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$line")")
      done < <(${name}_names)
      ;;
    shell) mapfile -t COMPREPLY < <(compgen -W ${quoteSingle(SHELLS.join(' '))} -- "$cur") ;;
    files)
      while IFS= read -r line; do
        [[ "$line:" == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$line"):")
      done < <(${name}_names)
      mapfile -t -O "\${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
      compopt -o nospace 2>/dev/null
      ;;
  esac
}
complete -F ${name} ${spec.program}
`
}

function zshEscape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, `'\\''`).replace(/:/g, '\\:').replace(/\[/g, '\\[').replace(/\]/g, '\\]')
}

function zshOption(option: CompletionOption): string {
  const description = zshEscape(option.description)
  const value = option.value ? ':value: ' : ''
  if (option.flags.length === 1) return `'${option.flags[0]}[${description}]${value}'`
  return `'(${option.flags.join(' ')})'{${option.flags.join(',')}}'[${description}]${value}'`
}

function zshScript(spec: CompletionSpec): string {
  const name = fn(spec)
  const commands = spec.commands.map((command) => `    '${command.name}:${zshEscape(command.description)}'`).join('\n')
  const cases = spec.commands
    .map((command) => {
      const argument =
        command.argument === 'instance'
          ? `'*:instance:${name}_instances'`
          : command.argument === 'shell'
            ? `':shell:(${SHELLS.join(' ')})'`
            : command.argument === 'files'
              ? `'*:place:${name}_places'`
              : ''
      return `      ${command.name}) _arguments ${command.options.map(zshOption).join(' ')} ${argument} ;;`
    })
    .join('\n')
  return `#compdef ${spec.program}
# ${spec.program} completion for zsh. Load it with:  source <(${spec.program} completion zsh)
# or keep it as _${spec.program} in a folder of your $fpath.
# The names come from the command being completed (set in ${name}: zsh scopes locals dynamically).
${name}_instances() {
  local -a names
  names=(\${(f)"$(\${${name}_program:-${spec.program}} list --names --all 2>/dev/null)"})
  compadd -a names
}
${name}_places() {
  local -a names
  names=(\${(f)"$(\${${name}_program:-${spec.program}} list --names --all 2>/dev/null)"})
  (( \${#names} )) && compadd -S '' -- \${^names}:
  _files
}
${name}() {
  local ${name}_program=\${words[1]}
  local -a commands
  commands=(
${commands}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'command' commands
    return
  fi
  local cmd=\${words[2]}
  shift words
  (( CURRENT-- ))
  case $cmd in
${cases}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${name} "$@"
else
  compdef ${name} ${spec.program}
fi
`
}

function fishScript(spec: CompletionSpec): string {
  const p = spec.program
  const lines = [
    `# ${p} completion for fish. Load it with:  ${p} completion fish | source`,
    `# or keep it: ${p} completion fish > ~/.config/fish/completions/${p}.fish`,
    `complete -c ${p} -f`,
    `function __${fn(spec).slice(1)}_names; ${p} list --names --all 2>/dev/null; end`
  ]
  const names = spec.commands.map((command) => command.name).join(' ')
  for (const command of spec.commands) {
    lines.push(`complete -c ${p} -n 'not __fish_seen_subcommand_from ${names}' -a ${command.name} -d ${quoteSingle(command.description)}`)
  }
  for (const option of spec.globalOptions) lines.push(fishOption(p, `not __fish_seen_subcommand_from ${names}`, option))
  for (const command of spec.commands) {
    const when = `__fish_seen_subcommand_from ${command.name}`
    for (const option of command.options) lines.push(fishOption(p, when, option))
    if (command.argument === 'instance') lines.push(`complete -c ${p} -n '${when}' -a '(__${fn(spec).slice(1)}_names)'`)
    if (command.argument === 'shell') lines.push(`complete -c ${p} -n '${when}' -a '${SHELLS.join(' ')}'`)
    if (command.argument === 'files') {
      lines.push(`complete -c ${p} -n '${when}' -a '(__${fn(spec).slice(1)}_names | string replace -r "\\$" ":")'`)
      lines.push(`complete -c ${p} -n '${when}' -F`)
    }
  }
  return `${lines.join('\n')}\n`
}

function fishOption(program: string, when: string | undefined, option: CompletionOption): string {
  const parts = [`complete -c ${program}`]
  if (when) parts.push(`-n '${when}'`)
  if (option.value) parts.push('-r')
  for (const flag of option.flags) {
    if (flag.startsWith('--')) parts.push(`-l ${flag.slice(2)}`)
    else parts.push(`-s ${flag.slice(1)}`)
  }
  parts.push(`-d ${quoteSingle(option.description)}`)
  return parts.join(' ')
}
