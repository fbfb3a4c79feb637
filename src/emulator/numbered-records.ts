/**
 * The emulator's stores (instances, volumes) keep records by id, each numbered in creation order
 * so that "newest first" holds when two share a timestamp. Restored records keep their numbers
 * and numbering goes on after the highest, so a record made after a restart sorts above them.
 */
export class NumberedRecords<T extends { seq: number }> extends Map<string, T> {
  private nextNumber = 0

  /** The number for the record being made now. */
  take(): number {
    return this.nextNumber++
  }

  /** Puts back a record from the state file, under its own number. */
  restore(id: string, record: T): void {
    this.set(id, record)
    this.nextNumber = Math.max(this.nextNumber, record.seq + 1)
  }
}
