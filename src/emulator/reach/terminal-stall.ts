/**
 * A terminal whose output is held up (the `faults.stallTerminals` fault): what a client that
 * stops reading looks like from inside the instance. The PTY's output is suspended as XOFF would
 * (POSIX tcflow TCOOFF) before its shell starts, so every program on it, tmux's server drawing
 * for its client included, finds the terminal not taking bytes; TCOON lets them through again.
 *
 * Node has no tcflow, so Perl's POSIX module does it (perl-base is essential on Debian and ships
 * with macOS): a wrapper that suspends its own terminal and execs the shell in place, and a
 * one-off that restarts a terminal by its path.
 */
import { execFile } from 'node:child_process'

const SUSPEND_THEN_EXEC = 'use POSIX; tcflow(0, TCOOFF) or die "tcflow: $!\\n"; exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\\n";'
const RESTART = 'use POSIX; open(my $t, "+<", $ARGV[0]) or exit 0; tcflow(fileno($t), TCOON) or die "tcflow: $!\\n";'

/** `file args…` started on a terminal whose output is suspended from the start. */
export function withOutputSuspended(file: string, args: readonly string[]): { file: string; args: string[] } {
  return { file: 'perl', args: ['-e', SUSPEND_THEN_EXEC, file, ...args] }
}

/** Lets the terminal at `ptsPath` write again (one already gone is fine). */
export function restartOutput(ptsPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('perl', ['-e', RESTART, ptsPath], { timeout: 5_000 }, (error) => (error ? reject(error) : resolve()))
  })
}

/** Per instance: whether its new terminals start held up, and those that did, until the fault ends. */
export class TerminalStalls {
  private readonly stalled = new Map<string, string[]>()

  /** For a session of `instanceId` opening a terminal: whether to hold it up, and where to note its path. */
  forInstance(instanceId: string): TerminalStall {
    return {
      active: () => this.stalled.has(instanceId),
      started: (ptsPath) => this.stalled.get(instanceId)?.push(ptsPath)
    }
  }

  /** Whether the terminal at `ptsPath` started held up and has not been let go. */
  holds(ptsPath: string): boolean {
    for (const paths of this.stalled.values()) if (paths.includes(ptsPath)) return true
    return false
  }

  set(instanceId: string, on: boolean): Promise<void> {
    if (on) {
      if (!this.stalled.has(instanceId)) this.stalled.set(instanceId, [])
      return Promise.resolve()
    }
    const paths = this.stalled.get(instanceId) ?? []
    this.stalled.delete(instanceId)
    return Promise.all(paths.map((path) => restartOutput(path))).then(() => undefined)
  }
}

export interface TerminalStall {
  active(): boolean
  started(ptsPath: string): void
}
