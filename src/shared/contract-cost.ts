/**
 * The cost guard's part of the contract (see contract.ts for the rules every command follows):
 * what each billed instance costs as far as the app can tell, its GPU activity, and the rules
 * that remind the user or stop it. Main owns all of it (src/main/cost/); the renderer shows the
 * `cost` snapshot and asks through these commands.
 *
 * Every amount here is an estimate from `instanceBillingInfo` and the time the app saw the
 * instance running: the provider's bill is the truth (README, "What the cost estimates are").
 */

/** What the user wants done about one instance (or, in Settings, about new instances). */
export interface GuardRules {
  /** A reminder after this many hours running, then once per such period; null: none. */
  remindAfterHours: number | null
  /** Stop after this many hours running; null: never. */
  stopAfterHours: number | null
  /** Stop at this local time of day, "HH:MM" (24 h); null: never. */
  stopAtTime: string | null
  /** Stop when every GPU has been below `belowPercent` for `forMinutes`; null: never. */
  idle: { belowPercent: number; forMinutes: number } | null
  /** Warn 15 minutes before a day, week or month plan ends. */
  warnBeforePlanEnd: boolean
}

/** The guard's settings (Settings → Cost guard). */
export interface CostGuardSettings {
  /** The rules a newly seen instance starts with. */
  defaults: GuardRules
  /** How long the notice before an automatic stop lasts. */
  countdownMinutes: number
  /** macOS: the burn rate as the title next to the tray icon. */
  trayTitle: boolean
  /** On Quit, offer to stop the instances still running. Off by default. */
  offerStopOnQuit: boolean
}

/**
 * Why an instance is to be stopped: a rule (a reminder and the plan warning never stop), or
 * `job-done`, a job that ended whose user asked at its start for the instance to stop then.
 */
export type StopRule = 'stop-after' | 'stop-at' | 'idle' | 'job-done'

/** An automatic stop about to happen: "Keep running" cancels it. */
export interface Countdown {
  rule: StopRule
  /** Why, in the user's words: "idle for 30 min (every GPU below 5 %)". */
  reason: string
  /** Unix ms, main's clock. */
  startedAt: number
  endsAt: number
  /** The stop was asked for and failed; this is the next try (no new notice). */
  retry?: boolean
}

/**
 * The most GPUs one instance's answer may list: a machine with more is not one we rent. An answer
 * listing more is not a reading at all (a hostile or broken `nvidia-smi`, #21).
 */
export const MAX_GPUS = 64
/** Probes kept per instance, one a minute: the last hour and a little more. A fixed-size ring. */
export const GPU_HISTORY_POINTS = 64

/** One GPU as `nvidia-smi` reported it; null where it said `[N/A]`, nothing readable, or a value out of range. */
export interface GpuReading {
  /** 0–100 %. */
  utilization: number | null
  memoryUsedMiB: number | null
  memoryTotalMiB: number | null
}

/** One probe: every GPU (at most MAX_GPUS), or why the probe got nothing (a missed probe never counts as idle). */
export interface GpuSample {
  at: number
  gpus: GpuReading[]
  /** Set when this probe failed: why, in the user's words. */
  missed?: string
}

/** One probe as the window's chart draws it: the busiest GPU's load (null: none read), or a miss. */
export interface GpuPoint {
  at: number
  busiest: number | null
  missed?: true
}

/**
 * What the window and the tray are told about an instance's GPUs: a summary, never every sample.
 * `latest` is the newest probe (its GPUs in full, at most MAX_GPUS); `history` one point per probe
 * over the last hour, oldest first, at most GPU_HISTORY_POINTS.
 */
export type GpuActivity =
  /** Probing over SSH once a minute. */
  | { state: 'probing'; latest?: GpuSample; history: GpuPoint[] }
  /** Cannot probe, or the last probe failed; `reason` says why and what to do ("open a terminal once to trust its host key"). */
  | { state: 'unavailable'; reason: string; latest?: GpuSample; history: GpuPoint[] }
  /** Not running: nothing to probe. */
  | { state: 'off' }

/** Day, week and month plans: paid for the whole term. */
export interface PlanTerm {
  /** price × duration: what the plan commits to. */
  committed: number
  /** The number of periods bought (billing duration). */
  periods: number
  chargeMode: string
  /** scheduledStopTimestamp, when the service gave one. */
  endsAt: number | null
}

/** What one billed instance (not stopped, released or gone) costs, as far as the app can tell at `CostSnapshot.at`. */
export interface InstanceMeter {
  /** instanceBillingInfo as listed. */
  price: number
  unit: string
  chargeMode: string
  /** Dollars per hour; a plan's price spread over its period's hours. 0 for a mode the app does not know. */
  hourlyRate: number
  /** When this run began: when the app saw it start, else `createAtUnixMs`. */
  runStartedAt: number
  runStartSource: 'seen' | 'created'
  /** How long this run has lasted, ms. */
  uptimeMs: number
  /** Estimated dollars for this run so far: hourly rate × time since the run began. */
  costSoFar: number
  plan?: PlanTerm
}

export interface GuardInstance {
  instanceId: string
  name: string
  meter: InstanceMeter
  rules: GuardRules
  /** The rules in words, for the list, the details and the tray ("auto-stops when idle 30 min"). */
  ruleWords: string[]
  countdown?: Countdown
  /** The next reminder (Unix ms) while the reminder rule is on and the instance runs. */
  nextReminderAt?: number
  /** "Keep running" put the stop rules off until then. */
  keepRunningUntil?: number
  gpu: GpuActivity
  /** The idle rule cannot act: why (no GPU readings). */
  idleBlockedBy?: string
}

/** Main's whole view of cost, sent as the `cost` event whenever it changes. */
export interface CostSnapshot {
  /** main's clock when this was made; the window adds the time since for live figures. */
  at: number
  /** Dollars per hour of everything billed now. */
  burnRatePerHour: number
  billedCount: number
  /** With a balance: how long it lasts at this burn rate. Absent without one, or with nothing billed. */
  runway?: { hours: number; available: number }
  instances: GuardInstance[]
  /**
   * Listed instances the guard itself stopped, and why: the cloud answers every stop with the
   * same "Stopped at your request", so without this the details would blame the user. Absent
   * when there are none.
   */
  stops?: GuardStop[]
}

/** A stop the cost guard made (kept until its instance is no longer listed). */
export interface GuardStop {
  instanceId: string
  /** main's clock when the cloud accepted the stop. */
  at: number
  /** In the user's words, as the notification said it: "its GPUs were idle for 30 min (…)". */
  reason: string
}

/** What Quit offers to stop when the setting is on and instances are running. */
export interface QuitOffer {
  instances: { instanceId: string; name: string; hourlyRate: number }[]
  burnRatePerHour: number
}

export interface CostCommands {
  'cost.get': { input: void; result: CostSnapshot }
  /** Sets one instance's rules (the rules apply from now; a countdown they no longer ask for ends). */
  'cost.setRules': { input: { instanceId: string; rules: GuardRules }; result: CostSnapshot }
  /**
   * "Keep running": ends a countdown and puts the stop rules off for 2 hours; or, after a
   * reminder, puts the next reminder 2 hours away.
   */
  'cost.keepRunning': { input: { instanceId: string }; result: CostSnapshot }
  /** What Quit would offer to stop; null when the setting is off or nothing runs. */
  'cost.quitOffer': { input: void; result: QuitOffer | null }
  /** Quit's "Stop and quit": stops each running instance through the same command as Stop. */
  'cost.stopAll': { input: void; result: { stopped: string[]; failed: { instanceId: string; message: string }[] } }
}

export interface CostEvents {
  cost: CostSnapshot
}
