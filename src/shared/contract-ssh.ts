/**
 * The SSH part of the contract (see contract.ts for the rules every command follows).
 *
 * Terminal bytes travel as `ssh.data` events, sent only to the window that opened the terminal,
 * batched by main (16 ms or 64 KiB; per read in a flood) and never splitting a UTF-8 sequence.
 * The renderer answers the `ssh.ack` notice with the byte count once xterm has parsed them, one
 * per parse slice; main pauses the channel while its window (128 KiB–1 MiB, sized as it runs,
 * src/main/ssh/data-path/flow-control.ts) is full. Keystrokes and resizes are notices
 * too: a flood of them costs no answer each.
 *
 * A command line (`cloud-tray ssh`) opens the same kind of session with `run`: once, for a command
 * or the login shell, with a pseudo-terminal only when asked. Without one, stdout and stderr come
 * apart (`ssh.data`'s `stream`). Such a session is never opened again after a drop: it closes
 * with the command's exit status (`TerminalStatus.exitCode`), or without one when the connection
 * was lost. Its input may be bytes, ends with `ssh.eof`, and is acknowledged with `ssh.written` so
 * piped input never piles up in main.
 */

export type TerminalState = 'connecting' | 'connected' | 'reconnecting' | 'closed' | 'failed'

/**
 * Which tmux server a session is on: `ours` is Cloud Tray's own (`tmux -L cloudtray`, where its
 * tabs and jobs run), `user` the user's default one (sessions they made themselves).
 */
export type SessionSocket = 'ours' | 'user'

/** A tmux session on an instance. Ours are named `cloudtray-…`; the user's name is text to show and match, never a command. */
export interface SessionRef {
  socket: SessionSocket
  name: string
}

/**
 * Whether what runs in a tab survives a dropped connection: in a tmux session (it keeps running
 * on the instance, and the tab attaches again), or a plain shell, and why.
 */
export type Persistence =
  | { kind: 'tmux'; session: SessionRef }
  | {
      kind: 'plain'
      /** `off`: the profile's setting; `no-tmux` / `old-tmux`: the instance lacks a tmux we can use; `check-failed`: we could not tell. */
      why: 'off' | 'no-tmux' | 'old-tmux' | 'check-failed'
      /** What to tell the user, in their words (the no-tmux notice). */
      message: string
    }

export interface TerminalStatus {
  terminalId: string
  state: TerminalState
  /** A line for the terminal, e.g. "connection lost — reconnecting in 4 s". */
  message: string
  /** While reconnecting: when the next attempt starts (Unix ms). */
  retryAt?: number
  /** True when retrying makes no sense without the user (e.g. authentication failed). */
  needsUser?: boolean
  /** `closed` because the shell or command ended: its exit status, when the server sent one. */
  exitCode?: number
  /** `closed` because the command was killed: the signal's name (`TERM`, `KILL`, …). */
  signal?: string
  /** With `connected`: whether the tab's shell lives in a tmux session, and which. */
  persistence?: Persistence
}

/** A session for a command line (see the top of this file). */
export interface SshRun {
  /** The command to run; absent: the user's login shell. */
  command?: string
  /** A pseudo-terminal, as `ssh -t` asks for one (interactive use). */
  pty: boolean
  /** TERM for the pseudo-terminal; default `xterm-256color`. */
  term?: string
}

/** A tmux session on an instance, as the instance's panel lists it. */
export interface InstanceSession {
  socket: SessionSocket
  /** tmux's own id on its server (`$3`): how Cloud Tray targets it. */
  id: string
  /** Shown as text only. */
  name: string
  /** How many terminals are attached to it now (0: detached). */
  attached: number
  /** Unix ms. */
  createdAt: number
  lastActivityAt: number
  /** Its last non-empty line of output, as text. */
  lastLine: string
  /** Set for a job's session (Run a job…). */
  jobId?: string
}

export type SshPrompt =
  | {
      promptId: string
      kind: 'host-key'
      host: string
      port: number
      keyType: string
      /** `SHA256:<base64>` as OpenSSH prints it. */
      fingerprint: string
    }
  | {
      promptId: string
      kind: 'host-key-changed'
      host: string
      port: number
      /** The type of the key presented now. */
      keyType: string
      /** The type of the recorded key; a different type than `keyType` is a change too, as in OpenSSH. */
      oldKeyType: string
      oldFingerprint: string
      newFingerprint: string
      /** Where the old key is recorded, for the explicit "remove" action. */
      knownHostsFile: string
    }
  | { promptId: string; kind: 'passphrase'; keyFile: string; retry: boolean }
  | {
      promptId: string
      kind: 'password' | 'keyboard-interactive'
      host: string
      username: string
      instructions?: string
      prompts: { prompt: string; echo: boolean }[]
    }

export type PromptAnswer =
  | { kind: 'host-key'; decision: 'accept-and-remember' | 'accept-once' | 'cancel' }
  | { kind: 'secret'; values: string[] }
  | { kind: 'cancel' }

export interface SshCommands {
  /**
   * Opens a terminal. With `session`, its shell is that tmux session (one of ours is made when it
   * is gone; one of the user's must exist). Without, main makes a new session of ours when the
   * profile keeps sessions (the default) and answers it, so the tab can come back to it; else a
   * plain shell.
   */
  'ssh.open': {
    /**
     * `session`: a window's tab on that tmux session; `run`: a command line's session (see the top
     * of this file); neither: a window's terminal tab (in a new tmux session of ours when the profile keeps sessions).
     */
    input: { instanceId: string; cols: number; rows: number; session?: SessionRef; run?: SshRun }
    result: { terminalId: string; session?: SessionRef }
  }
  /** Closes a terminal; `end: true` also ends its tmux session ("End it"), else it keeps running ("Leave it running"). */
  'ssh.close': { input: { terminalId: string; end?: boolean }; result: void }
  /** The instance's tmux sessions (ours and the user's own), with their last line of output. */
  'ssh.sessions': { input: { instanceId: string }; result: InstanceSession[] }
  /** Ends a tmux session on the instance (the panel's "End"). */
  'ssh.endSession': { input: { instanceId: string; session: SessionRef }; result: void }
  'ssh.reconnect': { input: { terminalId: string }; result: void }
  'ssh.answer': { input: { promptId: string; answer: PromptAnswer }; result: void }
  /** `ssh -p <nodePort> <user>@<address>`, quoted for POSIX shells; refused when a value is not one SSH accepts. */
  'ssh.command': { input: { instanceId: string }; result: { command: string } }
  /**
   * The Host block that "Add to ~/.ssh/config" would write, shown before writing, and where in
   * the file it goes (`placement`, a phrase such as "at the end of the file").
   */
  'ssh.configPreview': {
    input: { instanceId: string }
    /**
     * `inPlace`: the file already holds exactly this block where it belongs (nothing to write).
     * `exists`: the file is there now (it is backed up before the write); else the write creates it.
     */
    result: { path: string; block: string; placement: string; inPlace: boolean; exists: boolean }
  }
  /**
   * Writes `block`, the previewed text, and only that: when the block planned now differs (the
   * instance or the file changed since the preview), nothing is written and the error has
   * `field: 'block'`, asking the user to review the new block.
   */
  'ssh.configWrite': { input: { instanceId: string; block: string }; result: { path: string; backupPath: string | null } }
  /** The explicit action that removes a changed host key. */
  'ssh.forgetHostKey': { input: { host: string; port: number }; result: void }
}

/** One-way: main answers nothing; one for a closed or foreign terminal is dropped. */
export interface SshNotices {
  /**
   * Bytes xterm has parsed, since the last ack; `parseMs`: the time xterm spent parsing them, when
   * the consumer measures it (the renderer does): flow control sizes its window by it.
   */
  'ssh.ack': { terminalId: string; bytes: number; parseMs?: number }
  /** What the user typed or pasted; a command line's piped input as bytes. */
  'ssh.input': { terminalId: string; data: string | Uint8Array }
  /** A `run` session's input ended (the command line's stdin closed): the command reads end-of-file. */
  'ssh.eof': { terminalId: string }
  'ssh.resize': { terminalId: string; cols: number; rows: number }
}

export interface SshEvents {
  /** `stream: 'stderr'`: a `run` session without a pseudo-terminal's error output. */
  'ssh.data': { terminalId: string; data: Uint8Array; stream?: 'stderr' }
  /** A `run` session: input bytes handed to SSH since the last one (the command line's credit). */
  'ssh.written': { terminalId: string; bytes: number }
  'ssh.status': TerminalStatus
  'ssh.prompt': SshPrompt
}
