/**
 * Everything Cloud Tray runs on an instance for persistent terminals and jobs, in one place.
 *
 * Each command is a FIXED script of ours run by `sh -c`, and everything that varies (a session
 * name, a job's command line and folder, a lobby's name) reaches it only as a positional argument
 * (`$1`, `$2`, …), each quoted for POSIX shells by shlex. So no text from the user, a server or a
 * file is ever parsed as shell code, and none is typed into a prompt. The login shell that sshd
 * starts only un-quotes `sh -c '<script>' cloudtray '<arg>' …`.
 *
 * tmux itself can run shell commands from its formats (`#(…)`) and reads `$…` targets as ids,
 * so names from the user's own tmux server are never put into a format or a target either: those
 * sessions are found by their ids (`$3`), which tmux makes.
 *
 * Our sessions live on a tmux server of our own (`tmux -L cloudtray`) started with our options
 * (`-f ~/.cloudtray/tmux-1.conf`); the user's own server and files are left alone.
 */
import { quote } from 'shlex'

/** Our tmux server's socket name (`tmux -L cloudtray …` reaches it by hand too). */
export const OUR_SOCKET = 'cloudtray'
/** Where our files on the instance live, relative to its home. */
export const OUR_FOLDER = '.cloudtray'
/** Bumped when the config or the wrapper changes, so a server started with an older config keeps its own file. */
export const SCRIPTS_VERSION = 1
/** How many lines of a session's history are pulled into the tab on attach (xterm's scrollback holds 10 000). */
export const HISTORY_LINES = 10_000
/** The first tmux whose options and commands these scripts rely on. */
export const MIN_TMUX = { major: 3, minor: 0 }

/**
 * Our tmux server's options: tmux that feels like the plain terminal. The user's own config is
 * read after ours (a status bar, mouse mode or a prefix there wins); the system's before.
 */
export const TMUX_CONFIG = [
  "# Cloud Tray's options for its own tmux server (tmux -L cloudtray). Cloud Tray rewrites this",
  '# file: put your own options in ~/.tmux.conf, which is read after these and wins.',
  'source-file -q /etc/tmux.conf',
  '# No status bar and no prefix key: the tab is the terminal (Ctrl+B goes to the shell).',
  'set -g status off',
  'set -g prefix None',
  'set -g prefix2 None',
  'set -g history-limit 50000',
  'set -s escape-time 0',
  'set -g focus-events on',
  'set -g set-titles on',
  "set -g set-titles-string '#{pane_title}'",
  'set -g default-terminal screen-256color',
  "# Cloud Tray's terminal keeps the scrollback: no alternate screen, and lines that leave the",
  '# screen go with line feeds, so each lands in it; 24-bit colour passes through.',
  "set -ga terminal-overrides ',xterm*:smcup@:rmcup@:indn@:Tc'",
  'source-file -q ~/.tmux.conf',
  'source-file -q ~/.config/tmux/tmux.conf',
  ''
].join('\n')

/**
 * The job wrapper, fixed and ours: `sh job-1.sh <id> <folder> <command line>`, the folder and the
 * command line as octal escapes (`\0ooo` per byte, see `octalEscapes`: tmux would take an argument
 * ending in `;` for one of its own separators). It records the start, the end and the exit status
 * under ~/.cloudtray/jobs/<id>/ (so the app learns the outcome even if it was closed when the job
 * ended), keeps the last lines of output, and wakes a waiting app (`tmux wait-for`). The command
 * line runs in the user's shell, as typed.
 */
export const JOB_WRAPPER = [
  '#!/bin/sh',
  "# Cloud Tray's job wrapper (rewritten by Cloud Tray). It runs one job and records when it",
  '# started and ended and its exit status in ~/.cloudtray/jobs/<id>/.',
  'id=$1',
  'dir=$(printf "%b" "$2")',
  'cmd=$(printf "%b" "$3")',
  'jobs="$HOME/.cloudtray/jobs/$id"',
  'date +%s > "$jobs/started"',
  'case $dir in',
  '  "~") dir=$HOME ;;',
  '  "~/"*) dir=$HOME/${dir#"~/"} ;;',
  'esac',
  'if cd -- "$dir"; then',
  '  "${SHELL:-/bin/sh}" -c "$cmd"',
  '  status=$?',
  'else',
  '  echo "Cloud Tray: the folder $dir cannot be entered, so the job did not run." >&2',
  '  status=126',
  'fi',
  'tmux capture-pane -p -J -S -200 > "$jobs/tail.new" 2>/dev/null && mv -f "$jobs/tail.new" "$jobs/tail"',
  'printf "%s\\n" "$status" > "$jobs/status.new"',
  'date +%s > "$jobs/ended"',
  'mv -f "$jobs/status.new" "$jobs/status"',
  'tmux wait-for -S "cloudtray-job-$id" 2>/dev/null',
  'printf "\\n[The job ended with exit status %s.]\\n" "$status"',
  'exit "$status"',
  ''
].join('\n')

/** `sh -c '<script>' cloudtray <args…>`: the one shape of every remote command (see above). */
export function remoteCommand(script: string, args: readonly string[] = []): string {
  return ['sh', '-c', script, 'cloudtray', ...args].map((part) => quote(part)).join(' ')
}

const OURS = `tmux -L ${OUR_SOCKET}`
const CONFIG = `"$HOME/${OUR_FOLDER}/tmux-${SCRIPTS_VERSION}.conf"`
const STARTS_OURS = `${OURS} -f ${CONFIG}`

/**
 * Once per link: is there a tmux, and which? It also (re)writes our config and job wrapper, given
 * as arguments. Prints `cloudtray-tmux <tmux -V>` or `cloudtray-tmux none`.
 */
export function probeCommand(): string {
  const script = [
    'v=$(tmux -V 2>/dev/null) || { echo "cloudtray-tmux none"; exit 0; }',
    `d="$HOME/${OUR_FOLDER}"`,
    'umask 077',
    'mkdir -p "$d/jobs" || exit 1',
    `printf '%s' "$1" > "$d/tmux-${SCRIPTS_VERSION}.conf.$$" && mv -f "$d/tmux-${SCRIPTS_VERSION}.conf.$$" "$d/tmux-${SCRIPTS_VERSION}.conf" || exit 1`,
    `printf '%s' "$2" > "$d/job-${SCRIPTS_VERSION}.sh.$$" && mv -f "$d/job-${SCRIPTS_VERSION}.sh.$$" "$d/job-${SCRIPTS_VERSION}.sh" || exit 1`,
    'echo "cloudtray-tmux $v"'
  ].join('\n')
  return remoteCommand(script, [TMUX_CONFIG, JOB_WRAPPER])
}

export type TmuxProbe = { kind: 'tmux'; version: string } | { kind: 'none' } | { kind: 'too-old'; version: string }

/** What the probe printed. Anything else (a shell that printed its own lines first) is tolerated. */
export function parseProbe(stdout: string): TmuxProbe | undefined {
  const line = stdout
    .split('\n')
    .map((each) => each.trim())
    .find((each) => each.startsWith('cloudtray-tmux '))
  if (line === undefined) return undefined
  const answer = line.slice('cloudtray-tmux '.length).trim().slice(0, 64)
  if (answer === 'none') return { kind: 'none' }
  const match = /^tmux (?:next-)?(\d+)\.(\d+)/.exec(answer)
  // A development build ("tmux master") is taken as new enough.
  if (!match) return { kind: 'tmux', version: answer.replace(/[^\x20-\x7e]/g, '') }
  const [major, minor] = [Number(match[1]), Number(match[2])]
  const old = major < MIN_TMUX.major || (major === MIN_TMUX.major && minor < MIN_TMUX.minor)
  return old ? { kind: 'too-old', version: answer } : { kind: 'tmux', version: answer }
}

/** How long a tab's tmux client waits in its lobby for `joinCommand` before it gives up and detaches (the tab says so). */
export const LOBBY_SECONDS = 60

/**
 * A tab's shell in our session `name` (PTY). A session that is not there (yet, or any more) is
 * made and attached. One that is there is not attached at once: the tab's tmux client first
 * waits in a lobby of its own (`lobby`: an empty session that goes as soon as its client leaves
 * it, or after LOBBY_SECONDS), and `joinCommand` moves it over and takes the history in the same
 * server loop (see there for why). Either way the client signals the tmux channel `lobby` once
 * it is attached, so `joinCommand` never looks for a lobby that is still to come.
 */
export function attachOursCommand(name: string, lobby: string): string {
  const script = [
    `if ${OURS} has-session -t "=$1" 2>/dev/null; then`,
    `  exec ${STARTS_OURS} new-session -s "$2" "sleep ${LOBBY_SECONDS}" \\; set-option destroy-unattached on \\; set-option detach-on-destroy on \\; set-option status off \\; wait-for -S "$2"`,
    'fi',
    `exec ${STARTS_OURS} new-session -A -s "$1" \\; wait-for -S "$2"`
  ].join('\n')
  return remoteCommand(script, [name, lobby])
}

/**
 * Moves the tab's tmux client from its lobby into our session `name` and prints the session's
 * history (HISTORY_LINES at most), in one tmux command: the history ends exactly where the screen
 * tmux then draws for the client begins. Prints nothing when there was no lobby (the session was
 * new: no history). When the session is gone meanwhile, the lobby is ended: the tab's client
 * detaches and the tab says so.
 *
 * Why a lobby: tmux draws a client's screen at the end of a server loop, and not while the
 * client's terminal still has output queued, which one that has just attached always has (its
 * terminal's set-up sequences; tmux -vv logs "redraw deferred"). The session's output in the
 * meantime scrolls lines into the history after a capture taken together with the attach, and
 * the late screen starts below them: those lines never reached the tab. A client idle in its
 * lobby has nothing queued, so switch-client's redraw goes out in the loop that took the
 * capture. The window is first sized to the client (resize-window -A, then back to the
 * window-size policy): switch-client alone resizes it only at the end of the loop, after the
 * capture, and lines a resize moves between screen and history would be lost or doubled.
 */
export function joinCommand(lobby: string, name: string, historyLines = HISTORY_LINES): string {
  const script = [
    `${OURS} wait-for "$1" || exit 1`,
    `client=$(${OURS} list-clients -t "=$1" -F '#{client_name}' 2>/dev/null | head -n 1)`,
    '[ -n "$client" ] || exit 0',
    `${OURS} switch-client -c "$client" -t "=$2" \\; resize-window -A -t "=$2:" \\; set-option -wu -t "=$2:" window-size \\; capture-pane -p -S "-$3" -E -1 -e -J -t "=$2:" && exit 0`,
    'status=$?',
    `${OURS} kill-session -t "=$1" 2>/dev/null`,
    'exit "$status"'
  ].join('\n')
  return remoteCommand(script, [lobby, name, String(historyLines)])
}

/** A shell in the user's own session, by the id tmux gave it (`$3`): the user's server, options and history as they are. */
export function attachUserCommand(sessionId: string): string {
  return remoteCommand('exec tmux attach-session -t "$1"', [sessionId])
}

/** Exit status 0 while our session `name` exists. */
export function hasOurSessionCommand(name: string): string {
  return remoteCommand(`exec ${OURS} has-session -t "=$1"`, [name])
}

/** Ends our session `name` ("End it"). */
export function killOurSessionCommand(name: string): string {
  return remoteCommand(`exec ${OURS} kill-session -t "=$1"`, [name])
}

/** Ends the user's session with the id tmux gave it. */
export function killUserSessionCommand(sessionId: string): string {
  return remoteCommand('exec tmux kill-session -t "$1"', [sessionId])
}

/** The separator of the fields our scripts print themselves (printf; tmux would print it as `_`). */
export const FIELD = '\x1f'

/**
 * Every session on both servers (ours, the user's default one): one `S` line per session
 * (socket, then tmux's own line: id, attached clients, created, last activity, name — the name
 * last, so whatever it holds is the rest of the line) and one `L` line with its last non-empty
 * line of output. The loop goes over ids, which tmux makes (`$N`), never over names. `-u`: names
 * and lines in UTF-8 even where the login has no UTF-8 locale.
 */
export function listSessionsCommand(): string {
  const format = '#{session_id} #{session_attached} #{session_created} #{session_activity} #{session_name}'
  const script = [
    'for socket in ours user; do',
    `  if [ "$socket" = ours ]; then t="${OURS} -u"; else t="tmux -u"; fi`,
    '  ids=$($t list-sessions -F "#{session_id}" 2>/dev/null) || continue',
    '  $t list-sessions -F "$1" 2>/dev/null | while IFS= read -r line; do printf "S$2%s$2%s\\n" "$socket" "$line"; done',
    '  for id in $ids; do',
    '    case $id in "$"[0-9]*) ;; *) continue ;; esac',
    `    last=$($t capture-pane -p -J -t "$id:" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-400)`,
    '    printf "L$2%s$2%s$2%s\\n" "$socket" "$id" "$last"',
    '  done',
    'done'
  ].join('\n')
  return remoteCommand(script, [format, FIELD])
}

/** Each byte as `\0ooo`, which `printf %b` turns back into the same bytes: safe through tmux's and the shell's parsing alike. */
export function octalEscapes(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) out += `\\0${byte.toString(8).padStart(3, '0')}`
  return out
}

/**
 * Starts job `id` in a session of its own (`cloudtray-job-<id>`, kept after the job ends so its
 * output can be read) on our server: the folder and command line are written to the job's folder
 * and handed to the wrapper, escaped, as its arguments.
 */
export function jobStartCommand(id: string, folder: string, command: string): string {
  const script = [
    `d="$HOME/${OUR_FOLDER}/jobs/$1"`,
    'umask 077',
    'mkdir -p "$d" || exit 1',
    'printf "%b" "$3" > "$d/command"',
    'printf "%b" "$2" > "$d/folder"',
    `exec ${STARTS_OURS} new-session -d -s "cloudtray-job-$1" -x 160 -y 48 sh "$HOME/${OUR_FOLDER}/job-${SCRIPTS_VERSION}.sh" "$1" "$2" "$3" \\; set-option -w -t "=cloudtray-job-$1:" remain-on-exit on`
  ].join('\n')
  return remoteCommand(script, [id, octalEscapes(folder), octalEscapes(command)])
}

/** How many lines of a job's output its record carries. */
export const JOB_TAIL_LINES = 20

/**
 * What is known of each job (`J` line: id, started, ended, exit status, whether its session is
 * there; `T` lines: its last lines of output). With `wait`, for one job still running: waits first
 * until the wrapper says it ended (the caller bounds the wait).
 */
export function jobStatusCommand(ids: readonly string[], wait = false): string {
  const script = [
    'sep=$1',
    'wait=$2',
    'shift 2',
    'for id in "$@"; do',
    `  d="$HOME/${OUR_FOLDER}/jobs/$id"`,
    `  if [ "$wait" = wait ] && [ -d "$d" ] && [ ! -f "$d/status" ] && ${OURS} has-session -t "=cloudtray-job-$id" 2>/dev/null; then`,
    `    ${OURS} wait-for "cloudtray-job-$id"`,
    '  fi',
    '  if [ ! -d "$d" ]; then printf "M%s%s\\n" "$sep" "$id"; continue; fi',
    `  if ${OURS} has-session -t "=cloudtray-job-$id" 2>/dev/null; then session=yes; else session=no; fi`,
    '  printf "J%s%s%s%s%s%s%s%s%s%s\\n" "$sep" "$id" "$sep" "$(cat "$d/started" 2>/dev/null)" "$sep" "$(cat "$d/ended" 2>/dev/null)" "$sep" "$(cat "$d/status" 2>/dev/null)" "$sep" "$session"',
    '  if [ -f "$d/tail" ]; then tail=$(cat "$d/tail"); else',
    `    tail=$(${OURS} capture-pane -p -J -t "=cloudtray-job-$id:" -S -200 2>/dev/null); fi`,
    `  printf "%s\\n" "$tail" | grep -v "^[[:space:]]*$" | tail -n ${JOB_TAIL_LINES} | cut -c1-400 | while IFS= read -r line; do printf "T%s%s%s%s\\n" "$sep" "$id" "$sep" "$line"; done`,
    'done'
  ].join('\n')
  return remoteCommand(script, [FIELD, wait ? 'wait' : 'now', ...ids])
}
