/**
 * Controls that save the moment they change (a check box in Settings, a radio, a select): the
 * control shows the new choice at once, before main has answered. When main refuses (the
 * settings file could not be written), the control must show the saved value again, or the page
 * would say "on" while the app stays "off". Svelte cannot do that alone: the saved value did not
 * change, so nothing redraws the control.
 */

/** What a save-on-change handler gives back: a Result-like answer, or nothing to wait for. */
export type SaveAnswer = void | Promise<void | { ok: boolean }>

/** Waits for the save; true when main refused it, so the control goes back to the saved value. */
export async function wasRefused(answer: SaveAnswer): Promise<boolean> {
  const settled = await answer
  return settled !== undefined && !settled.ok
}
