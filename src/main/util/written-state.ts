/**
 * A value the app keeps in a file of its own (settings, profiles), changed only through the
 * file: each change is made inside one queue, written, and kept only once the write succeeded.
 * So when the disk refuses, the app and the window still agree on the old value (the caller says
 * why), and a change made while another is on its way builds on that one rather than losing it.
 */
export class WrittenState<T> {
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private current: T,
    private readonly write: (value: T) => Promise<void>
  ) {}

  get(): T {
    return this.current
  }

  /** What was read from the file (or the defaults): no write. */
  loaded(value: T): void {
    this.current = value
  }

  /** `change` runs on the value as the changes before it left it; rejects (and keeps the value) when it throws or the write fails. */
  update(change: (current: T) => T): Promise<T> {
    const saved = this.writing.then(async () => {
      const next = change(this.current)
      await this.write(next)
      this.current = next
      return next
    })
    this.writing = saved.then(
      () => undefined,
      () => undefined
    )
    return saved
  }
}
