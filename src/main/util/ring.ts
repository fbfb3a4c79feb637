/**
 * A fixed-size ring: the newest `capacity` items, oldest first. Memory is the capacity, however
 * long the app runs or however fast items come (#21: history that grows with what an instance
 * sends is how a hostile one fills main).
 */
export class Ring<T> {
  private readonly items: (T | undefined)[]
  private start = 0
  private count = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('a ring holds at least one item')
    this.items = new Array<T | undefined>(capacity)
  }

  get size(): number {
    return this.count
  }

  /** Adds the newest item; the oldest goes when the ring is full. */
  push(item: T): void {
    this.items[(this.start + this.count) % this.capacity] = item
    if (this.count < this.capacity) this.count++
    else this.start = (this.start + 1) % this.capacity
  }

  /** The oldest item, if any. */
  first(): T | undefined {
    return this.count === 0 ? undefined : this.items[this.start]
  }

  /** The newest item, if any. */
  last(): T | undefined {
    return this.count === 0 ? undefined : this.items[(this.start + this.count - 1) % this.capacity]
  }

  /** Drops the oldest items while `old` holds for them. */
  dropWhile(old: (item: T) => boolean): void {
    while (this.count > 0 && old(this.items[this.start] as T)) {
      this.items[this.start] = undefined
      this.start = (this.start + 1) % this.capacity
      this.count--
    }
  }

  /** Oldest first. */
  toArray(): T[] {
    const result: T[] = []
    for (let index = 0; index < this.count; index++) result.push(this.items[(this.start + index) % this.capacity] as T)
    return result
  }
}
