import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { diffSnapshots } from './diff'
import { makeInstance } from '../../shared/testing/instance'

const a = (status: string, extra: Partial<Instance['instanceRuntimeInfo']> = {}): Instance => {
  const instance = makeInstance({ id: 'a', name: 'alpha', status })
  return { ...instance, instanceRuntimeInfo: { ...instance.instanceRuntimeInfo, ...extra } }
}
const b = (status: string): Instance => makeInstance({ id: 'b', name: 'beta', status })

describe('diffSnapshots', () => {
  it.each<[string, Instance[] | null, Instance[], unknown[]]>([
    ['first snapshot of a session: none', null, [a('Running'), b('Starting')], []],
    ['no change: none', [a('Running')], [a('Running')], []],
    ['status change', [a('Starting')], [a('Running')], [{ instanceId: 'a', name: 'alpha', from: 'Starting', to: 'Running' }]],
    ['new instance', [], [b('Initializing')], [{ instanceId: 'b', name: 'beta', from: null, to: 'Initializing' }]],
    ['disappeared', [a('Stopped'), b('Running')], [b('Running')], [{ instanceId: 'a', name: 'alpha', from: 'Stopped', to: null }]],
    [
      'carries message and diagnosis',
      [a('Starting')],
      [a('StartingFailed', { message: 'boom', diagnosisMessage: 'no GPU left' })],
      [{ instanceId: 'a', name: 'alpha', from: 'Starting', to: 'StartingFailed', message: 'boom', diagnosisMessage: 'no GPU left' }]
    ]
  ])('%s', (_name, previous, next, expected) => {
    expect(diffSnapshots(previous, next)).toEqual(expected)
  })
})
