/**
 * One fast-check seed for the whole suite, so CI runs the same cases every time and a failure
 * can be replayed. Explore new cases locally with FC_SEED=<any number> npm run test:unit.
 */
import fc from 'fast-check'

const seed = Number(process.env['FC_SEED'] ?? 20261123)
fc.configureGlobal({ seed: Number.isFinite(seed) ? seed : 20261123 })
