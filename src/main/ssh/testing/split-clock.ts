/**
 * A clock for integration tests that talk to real servers: short timers (the 16 ms batcher)
 * run in real time, long ones (reconnect backoff, connect timeouts, a countdown) wait for the test
 * to advance a ManualClock, so no test sleeps through a backoff. `now` is real time plus what the
 * test advanced, so what is due by the time (a countdown's end) is due once its timer fires.
 */
import { ManualClock, systemClock, type Clock, type TimerHandle } from '../../../shared/clock'

export function splitClock(thresholdMs = 500): { clock: Clock; manual: ManualClock } {
  const real = systemClock()
  const manual = new ManualClock(Date.now())
  const manualStart = manual.now()
  const owners = new Map<number, Clock>()
  let nextId = 1
  const handles = new Map<number, TimerHandle>()
  const clock: Clock = {
    now: () => Date.now() + (manual.now() - manualStart),
    setTimeout(callback, ms) {
      const owner = ms >= thresholdMs ? manual : real
      const id = nextId++
      handles.set(
        id,
        owner.setTimeout(() => {
          handles.delete(id)
          owners.delete(id)
          callback()
        }, ms)
      )
      owners.set(id, owner)
      return { id }
    },
    clearTimeout(handle) {
      if (!handle) return
      owners.get(handle.id)?.clearTimeout(handles.get(handle.id))
      owners.delete(handle.id)
      handles.delete(handle.id)
    }
  }
  return { clock, manual }
}
