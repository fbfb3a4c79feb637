/**
 * The property tests (`*.property.test.ts`, fast-check) run with one seed for the whole suite
 * (vitest-setup.ts; FC_SEED=<n> to explore others). A failure must say which seed and path to
 * replay it with: this checks that the message a failing property throws carries them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

describe('property tests', () => {
  it('a failure prints the seed and path that replay it', () => {
    let message = ''
    try {
      fc.assert(fc.property(fc.nat(), (value) => value < 10))
    } catch (error) {
      message = (error as Error).message
    }
    const seed = Number(process.env['FC_SEED'] ?? 20261123)
    expect(message).toMatch(new RegExp(`\\{ seed: ${seed}, path: "[0-9:]+", endOnFailure: true \\}`))
    expect(message).toMatch(/Counterexample: \[10\]/)
  })
})
