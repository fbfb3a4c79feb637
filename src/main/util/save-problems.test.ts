import { describe, expect, it } from 'vitest'
import { saveProblemsIn } from './save-problems'

describe('a background write the disk refuses', () => {
  it('is one warning per file until a write works, then the warning goes', () => {
    const told: string[] = []
    const problems = saveProblemsIn({ warn: (id, message) => told.push(`warn ${id}: ${message}`), clear: (id) => told.push(`clear ${id}`) })
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
    problems.saved('/data/templates.json')
    problems.failed('/data/templates.json', 'your launch templates', full)
    problems.failed('/data/templates.json', 'your launch templates', full)
    problems.saved('/data/templates.json')
    problems.saved('/data/templates.json')
    expect(told).toEqual([
      'warn not-saved-templates.json: Cloud Tray could not save your launch templates in /data/templates.json: the disk is full. ' +
        'What changed is kept while Cloud Tray runs, and is saved with the next change once that is fixed.',
      'clear not-saved-templates.json'
    ])
  })
})
