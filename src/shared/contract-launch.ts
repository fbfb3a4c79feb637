/**
 * Getting the GPU (#26): launch templates, watching the catalog for stock, and relaunching a
 * spot instance the provider reclaimed. Main owns all of it (src/main/templates/,
 * src/main/availability/); the window shows the `templates` and `availability` snapshots and
 * asks through these commands (see contract.ts for the rules every command follows). The
 * commands a client without a window needs (`templates.list`, `templates.launch`) answer
 * everything in their Result and never rely on an event.
 */
import type { ChargeMode } from './api'
import type { CreateInstanceRequest } from './create-request'
import type { ErrorInfo } from './errors'

// ---------------------------------------------------------------- what a launch is

/**
 * Everything a launch needs: the create request as the form would send it, the regions the user
 * accepts (in order; `request.region` is the one chosen now) and the image's label. A spec read
 * back from an instance's listing may lack what the listing does not say (its image id): the
 * form then asks for it.
 */
export interface LaunchSpec {
  request: CreateInstanceRequest
  /** Region ids the user accepts, in order of preference; never empty when a spec is saved. */
  regions: string[]
  /** What the user calls the image (their image book's label); absent: shown by its id. */
  imageLabel?: string
}

/** Where a launch came from, as `instances.create` is told it. */
export interface LaunchOrigin {
  /** Launched from this template (an instance of it inherits its "relaunch when reclaimed"). */
  templateId?: string
  /** The launch this availability watch waited for: it ends once the instance is created. */
  watchId?: string
  /** A relaunch of this reclaimed instance (it inherits its "relaunch when reclaimed"). */
  relaunchOf?: string
}

/**
 * Opening the create form filled in: a template's launch, "Launch now" when stock came, "Launch
 * again" on an instance, editing a template. Main answers it, or sends it as `navigate`.
 */
export interface LaunchFill {
  spec: LaunchSpec
  /** true: straight to the review step (with today's price and stock); false: the form. */
  review: boolean
  /** Said above the form, in the user's words ("Filled from «train», launched on …"). */
  note?: string
  /** What the launch answers, passed on to `instances.create`. */
  origin?: LaunchOrigin
  /** The form edits this template: it offers to save the changes back. */
  editTemplate?: { templateId: string; name: string }
  /** Fields the source could not say (an image id a listing does not carry): the form asks for them. */
  missing?: string[]
}

// ---------------------------------------------------------------- templates

/** Launch automatically, within a price and a time: what the user pre-authorised. */
export interface AutoLaunch {
  /** The most it may cost, in dollars per hour (a day, week or month plan spread over its hours). */
  maxPricePerHour: number
}

/** "Relaunch automatically when reclaimed": how much, and for how long after the reclaim. */
export interface RelaunchRule extends AutoLaunch {
  /** Keep trying this many hours after the reclaim; then the watch ends. */
  withinHours: number
}

export interface LaunchTemplate {
  templateId: string
  /** What the user calls it (unique per profile, compared without regard to case). */
  name: string
  spec: LaunchSpec
  /** Instances launched from it are relaunched when reclaimed; null: not. */
  relaunch: RelaunchRule | null
  createdAt: number
  updatedAt: number
}

/** A template as the window saves it: no id for a new one. */
export interface TemplateInput {
  templateId?: string
  name: string
  spec: LaunchSpec
  relaunch: RelaunchRule | null
}

// ---------------------------------------------------------------- availability watches

/** What a watch waits for: a type in any of these regions, for a billing mode. */
export interface StockTarget {
  instanceTypeId: string
  /** Region ids, in the user's order: the first with stock is launched in. */
  regions: string[]
  chargeMode: ChargeMode
}

/** Stock the shared catalog read found for a watch. */
export interface StockSighting {
  regionId: string
  /** The region as the catalog names it. */
  regionName: string
  /** Unit price for the watch's mode, and per hour. */
  price: number
  hourlyRate: number
  /** Unix ms (main's clock): first seen in this episode. */
  since: number
}

/**
 * `waiting`: out of stock everywhere it may go. `in-stock`: stock is there, the user was told
 * (and it launches by itself when pre-authorised and within the price). `launching`: a create
 * is on its way. `needs-you`: an automatic launch could not be finished by itself (a create
 * whose outcome is unknown, a refusal): the note says what to do.
 */
export type WatchState = 'waiting' | 'in-stock' | 'launching' | 'needs-you'

export type WatchOrigin =
  { kind: 'form' } | { kind: 'template'; templateId: string } | { kind: 'reclaim'; instanceId: string; name: string }

export interface StockWatch {
  watchId: string
  target: StockTarget
  /** What it waits for, in words: "1 × H100-SXM-80GB, hourly, in us-west-1 or ap-southeast-1". */
  label: string
  /** What "Launch now" fills in and an automatic launch sends. */
  spec: LaunchSpec
  /** Launch by itself when stock comes, at most this price, until `deadline`; null: only tell. */
  auto: (AutoLaunch & { deadline: number }) | null
  origin: WatchOrigin
  createdAt: number
  state: WatchState
  /** Stock now, when the last read found some. */
  available?: StockSighting
  /** Stock that came and went before anyone acted: where, from when until when. */
  cameAndWent?: { regionName: string; from: number; until: number }
  /** Why it is waiting or needs the user, in their words (a price above the ceiling, a failed launch). */
  note?: string
}

/** The shared catalog read all watches use. */
export interface StockChecks {
  /** `off`: no watch; `paused`: signed out or asleep; `backoff`: the last read failed. */
  state: 'off' | 'watching' | 'paused' | 'backoff'
  intervalMs: number
  /** Unix ms of the last successful read. */
  lastReadAt: number | null
  nextReadAt?: number
  error?: ErrorInfo
}

export interface AvailabilitySnapshot {
  watches: StockWatch[]
  checks: StockChecks
  /** Instances that are relaunched when reclaimed, with their rule. */
  relaunch: { instanceId: string; rule: RelaunchRule }[]
}

/** What "Launch now" found when the user acted. */
export type LaunchNowOutcome = { kind: 'review'; fill: LaunchFill } | { kind: 'gone'; message: string; fill: LaunchFill }

// ---------------------------------------------------------------- the maps

export interface LaunchCommands {
  'templates.list': { input: void; result: LaunchTemplate[] }
  /** Saves a new template or replaces one (by id); answers it. Names are unique per profile. */
  'templates.save': { input: TemplateInput; result: LaunchTemplate }
  'templates.rename': { input: { templateId: string; name: string }; result: LaunchTemplate }
  'templates.duplicate': { input: { templateId: string }; result: LaunchTemplate }
  'templates.delete': { input: { templateId: string }; result: LaunchTemplate[] }
  /**
   * The template as a JSON file: the shell asks where to save it (Electron's dialog) or hands it
   * to the page as a download (the web shell). `savedTo`: the file written; absent when the page
   * saves it or the user cancelled (`cancelled`).
   */
  'templates.export': { input: { templateId: string }; result: { fileName: string; text: string; savedTo?: string; cancelled?: true } }
  /**
   * A template from JSON: an exported template file, or a create request as the provider's
   * console exports it (then `name` names the template). Checked field by field: a bad field is
   * named and nothing is saved.
   */
  'templates.import': { input: { text: string; name?: string }; result: LaunchTemplate }
  /** Import through the shell's own file dialog (Electron); null when cancelled. Not in the web shell: the page picks the file. */
  'templates.importFile': { input: void; result: LaunchTemplate | null }
  /** A template's launch with today's price and stock: the first of its regions with stock, else its first. */
  'templates.review': { input: { templateId: string }; result: LaunchFill }
  /**
   * Launches a template now, without the window (the command line): the first of its regions in
   * stock, through the create-once path. Fails with `out-of-stock` when none has any.
   * `template`: its id or its name. `name`: the new instance's name instead of the template's
   * (`cloud-tray launch --name`).
   */
  'templates.launch': {
    input: { template: string; name?: string }
    result: { instanceId: string; regionId: string; hourlyRate?: number }
  }
  /**
   * "Launch again" (and a reclaim's "Relaunch like this one", with `review`): the form filled with
   * what this instance was launched with, as far as it is known.
   */
  'launches.again': { input: { instanceId: string; review?: boolean }; result: LaunchFill }
  'availability.get': { input: void; result: AvailabilitySnapshot }
  /** Starts a watch; answers its id. */
  'availability.watch': {
    input: { target: StockTarget; spec: LaunchSpec; auto: (AutoLaunch & { deadline: number }) | null; templateId?: string }
    result: { watchId: string }
  }
  'availability.cancel': { input: { watchId: string }; result: void }
  /** "Launch now": reads the catalog again; the review step filled in if the stock is still there, else what happened. */
  'availability.launchNow': { input: { watchId: string }; result: LaunchNowOutcome }
  /** "Relaunch automatically when reclaimed" for one instance; null: off. */
  'availability.setRelaunch': { input: { instanceId: string; rule: RelaunchRule | null }; result: AvailabilitySnapshot }
}

export interface LaunchEvents {
  templates: LaunchTemplate[]
  availability: AvailabilitySnapshot
  /** This app created an instance (any path: the form, a watch, the command line). */
  launched: { instanceId: string; request: CreateInstanceRequest; origin?: LaunchOrigin }
  /** Spot instances the provider stopped (not this app): the availability part offers a relaunch. */
  reclaimed: { instanceId: string; name: string }[]
}
