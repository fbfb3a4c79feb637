/**
 * When the computer must not fall asleep for what the app is doing, and the edge-triggered hold
 * the shell's blocker gets (Electron: power-save-adapter.ts). Pure: the SSH wing reports its
 * count of uploads and downloads (files-manager.ts), this decides, the sink acts.
 *
 * Only a transfer holds. A laptop that idles to sleep in the middle of a long upload or download
 * cuts it: the link drops, the transfer waits RESUME_WITHIN_MS for it to come back and then
 * fails, and the user finds half a dataset in the morning. A transfer waiting for its link to
 * come back still counts: the wait needs the machine awake. What else is open does not hold: a
 * terminal's shell lives in a tmux session on the instance and is attached again after a sleep
 * (ssh/sessions/), a tunnel comes back by itself, and keeping a laptop awake for an idle terminal
 * would drain its battery for nothing.
 *
 * What it holds off is the idle sleep an app may hold off (Electron's `prevent-app-suspension`):
 * the screen may still dim and lock, and closing the lid still sleeps.
 */

/** What the wing has under way, as far as sleeping is concerned. */
export interface AwakeActivity {
  /** Uploads and downloads that have not ended (running, or waiting for their link to come back). */
  transfers: number
}

/** Whether the computer must stay awake for `activity`. */
export function mustStayAwake(activity: AwakeActivity): boolean {
  return activity.transfers > 0
}

/** What actually holds the computer awake: told `true` once when a hold must start, `false` once when it may end. */
export type AwakeSink = (hold: boolean) => void

/**
 * Follows the activity and tells the sink only when the answer changes, so the blocker is
 * started once for the first transfer and stopped once after the last, however many come and go
 * in between.
 */
export class KeepAwake {
  private holding = false

  constructor(private readonly sink: AwakeSink) {}

  /** Whether a hold is in force now. */
  get held(): boolean {
    return this.holding
  }

  update(activity: AwakeActivity): void {
    const hold = mustStayAwake(activity)
    if (hold === this.holding) return
    this.holding = hold
    this.sink(hold)
  }
}
