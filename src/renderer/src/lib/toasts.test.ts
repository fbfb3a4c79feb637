import { beforeEach, describe, expect, it } from 'vitest'

const { toasts } = await import('./toasts.svelte')

beforeEach(() => {
  for (const toast of toasts.items) toasts.dismiss(toast.id)
})

describe('toasts', () => {
  it('the same words again move to the newest place instead of stacking', () => {
    toasts.show('error', 'Could not save settings', 'The disk is full.')
    toasts.show('error', 'Could not stop «a»', 'Try again.')
    toasts.show('error', 'Could not save settings', 'The disk is full.')
    expect(toasts.items.map((toast) => toast.title)).toEqual(['Could not stop «a»', 'Could not save settings'])
  })

  it('other words, another tone, or a toast with choices each keep their own place', () => {
    toasts.show('error', 'Could not save settings', 'The disk is full.')
    toasts.show('error', 'Could not save settings', 'The disk is read-only.')
    toasts.show('warning', 'Could not save settings', 'The disk is full.')
    const choice = { label: 'Keep running', run: () => undefined }
    toasts.show('warning', '«a» stops in 5 min', undefined, { actions: [choice] })
    toasts.show('warning', '«a» stops in 5 min', undefined, { actions: [choice] })
    expect(toasts.items).toHaveLength(5)
  })
})
