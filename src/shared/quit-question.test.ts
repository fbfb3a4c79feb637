import { describe, expect, it } from 'vitest'
import { quitChoice, quitQuestion } from './quit-question'

const offer = (count: number) => ({
  instances: Array.from({ length: count }, (_unused, i) => ({ instanceId: `i-${i}`, name: `train-${i}`, hourlyRate: 2 })),
  burnRatePerHour: 2 * count
})

describe('the Quit offer', () => {
  it('names one instance and what it costs', () => {
    expect(quitQuestion(offer(1))).toMatchObject({
      message: 'Stop «train-0» before quitting?',
      detail:
        '«train-0» is running at about $2.00/h. Once Cloud Tray quits, nothing reminds you or stops it. Stopping keeps the data on its disks.',
      buttons: ['Stop It and Quit', 'Quit, Keep Running', 'Cancel'],
      defaultId: 0,
      cancelId: 2
    })
  })

  it('names at most five, then counts the rest', () => {
    const question = quitQuestion(offer(7))
    expect(question.message).toBe('Stop 7 running instances before quitting?')
    expect(question.detail).toMatch(/^«train-0», «train-1», «train-2», «train-3», «train-4», and 2 more are running at about \$14\.00\/h/)
    expect(question.buttons[0]).toBe('Stop Them and Quit')
  })

  it.each([
    [0, 'stop-and-quit'],
    [1, 'quit'],
    [2, 'cancel'],
    [-1, 'cancel']
  ])('answer %d → %s', (response, choice) => {
    expect(quitChoice(response)).toBe(choice)
  })
})
