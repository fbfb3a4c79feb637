/**
 * How far the service's clock is from ours, from the `Date` header every HTTP answer carries
 * (RFC 9110: whole seconds, stamped while the answer is made). Timestamps the service writes
 * (an instance's createAtUnixMs) are on its clock; the moment we sent a request is on ours.
 * Comparing them needs the offset, and what one answer proves is a range, not a number: the
 * stamp lies in [date, date + 1 s) of server time, made at some moment between our sending
 * (sentAt) and our receiving (receivedAt), so
 *
 *   server − local ∈ [date − receivedAt, date + 1000 − sentAt].
 */
export interface ServerClockOffset {
  /** Server time minus local time, at least this (ms). */
  min: number
  /** At most this (ms). */
  max: number
}

/** The offset one answer proves; undefined without a usable Date header. */
export function offsetFromDate(dateHeader: string | undefined, sentAt: number, receivedAt: number): ServerClockOffset | undefined {
  if (dateHeader === undefined || !(receivedAt >= sentAt)) return undefined
  const date = Date.parse(dateHeader)
  if (!Number.isFinite(date)) return undefined
  return { min: date - receivedAt, max: date + 1000 - sentAt }
}
