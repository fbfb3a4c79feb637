import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { diffSnapshots } from './diff'
import { fakeInstance } from '../test-support/fake-instance'

const a = (status: string, extra: Partial<Instance['instanceRuntimeInfo']> = {}): Instance => fakeInstance('a', 'alpha', status, extra)
const b = (status: string): Instance => fakeInstance('b', 'beta', status)

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
