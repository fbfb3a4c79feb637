/**
 * The lowest and highest of a list, by a loop. `Math.min(...values)` hands every value to the
 * call as an argument: past about 125,000 of them (fewer on a smaller stack) it throws
 * RangeError, and the lists here are as long as an instance or a service makes them (#21: an
 * instance's 200,000 GPU lines took main down that way). Lint refuses the spread form
 * (eslint.config.js), so this is the one way to ask.
 */

/** The smallest value, undefined for none; NaN is skipped. */
export function lowest(values: Iterable<number>): number | undefined {
  let result: number | undefined
  for (const value of values) if (!Number.isNaN(value) && (result === undefined || value < result)) result = value
  return result
}

/** The largest value, undefined for none; NaN is skipped. */
export function highest(values: Iterable<number>): number | undefined {
  let result: number | undefined
  for (const value of values) if (!Number.isNaN(value) && (result === undefined || value > result)) result = value
  return result
}
