import { describe, expect, it } from 'vitest'
import { INSTANCE_STATUSES } from './instance-rules'
import { statusWords } from './status-words'

describe("statuses in people's words", () => {
  it('has words for every status the app knows, and keeps an unknown one as it came', () => {
    expect(statusWords('PullingImage')).toBe('Downloading image')
    expect(statusWords('startingfailed')).toBe('Failed to start')
    for (const status of INSTANCE_STATUSES) expect(statusWords(status)).not.toMatch(/[a-z][A-Z]/)
    expect(statusWords('Hibernating')).toBe('Hibernating')
    expect(statusWords('')).toBe('Unknown')
    expect(statusWords(`x\n${'y'.repeat(100)}`)).toHaveLength(40)
  })
})
