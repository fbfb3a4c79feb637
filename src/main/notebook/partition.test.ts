import { describe, expect, it } from 'vitest'
import { notebookPartition } from './partition'

describe('notebookPartition', () => {
  it.each([
    ['sandbox', 'persist:notebook-sandbox'],
    ['hpc-ai', 'persist:notebook-hpc-ai'],
    ['a/b c', 'persist:notebook-a%2fb%20c']
  ])('%s → %s', (id, partition) => expect(notebookPartition(id)).toBe(partition))

  it('keeps different profiles apart', () => {
    expect(notebookPartition('a.b')).not.toBe(notebookPartition('a_b'))
  })
})
