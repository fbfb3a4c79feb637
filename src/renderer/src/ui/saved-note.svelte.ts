/**
 * "Saved." beside the control that saved it, for a few seconds: a person who pressed Save far down
 * a long page sees it where they are looking (one line at the top of Settings was scrolled out of
 * view), and a screen reader hears it (SavedNote.svelte is a status).
 */
const SAVED_NOTE_MS = 2500

export class SavedNoteText {
  text = $state('')
  private timer: ReturnType<typeof setTimeout> | undefined

  show(text: string): void {
    this.text = text
    clearTimeout(this.timer)
    this.timer = setTimeout(() => (this.text = ''), SAVED_NOTE_MS)
  }
}
