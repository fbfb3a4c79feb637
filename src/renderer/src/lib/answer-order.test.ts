import { describe, expect, it } from 'vitest'
import { AnswerOrder } from './answer-order'

/** A call whose answer the test hands over when it likes. */
function pendingCall<T>(): { send: () => Promise<T>; answer: (value: T) => void } {
  let answer!: (value: T) => void
  const promise = new Promise<T>((resolve) => (answer = resolve))
  return { send: () => promise, answer }
}

describe('AnswerOrder', () => {
  it('an answer with no event while it was out is the newest word', async () => {
    const order = new AnswerOrder()
    const call = pendingCall<string>()
    const asked = order.ask(call.send)
    call.answer('answer')
    expect(await asked).toEqual({ answer: 'answer', overtaken: false })
  })

  it('an event that lands while the call is out outdates its answer', async () => {
    const order = new AnswerOrder()
    const shown: string[] = []
    const onEvent = order.event((value: string) => shown.push(value))
    const call = pendingCall<string>()
    const asked = order.ask(call.send)
    // As the transport does with one chunk: the answer is read first, the event applied at once.
    call.answer('made before the change')
    onEvent('the change')
    expect(await asked).toEqual({ answer: 'made before the change', overtaken: true })
    expect(shown).toEqual(['the change'])
  })

  it('an event before the call was made does not outdate it', async () => {
    const order = new AnswerOrder()
    const onEvent = order.event(() => {})
    onEvent('earlier')
    const call = pendingCall<string>()
    const asked = order.ask(call.send)
    call.answer('newer')
    expect((await asked).overtaken).toBe(false)
  })
})
