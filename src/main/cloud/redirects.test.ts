import { describe, expect, it } from 'vitest'
import { MAX_REDIRECTS, decideRedirect, sameSite } from './redirects'

const from = new URL('https://hpc-ai.com/api/instance/list')

describe('redirects: only within the same site', () => {
  it.each<[string, string, boolean]>([
    ['https://hpc-ai.com/api/instance/list', 'https://www.hpc-ai.com/api/instance/list', true],
    ['https://www.hpc-ai.com/api/x', 'https://hpc-ai.com/api/x', true],
    ['https://HPC-AI.com/api', 'https://www.hpc-ai.COM/v2/api', true],
    ['https://hpc-ai.com/api', 'http://www.hpc-ai.com/api', false],
    ['https://hpc-ai.com/api', 'https://hpc-ai.com:8443/api', false],
    ['https://hpc-ai.com/api', 'https://api.hpc-ai.com/api', false],
    ['https://hpc-ai.com/api', 'https://hpc-ai.com.evil.example/api', false],
    ['https://hpc-ai.com/api', 'https://www.www.hpc-ai.com/api', false],
    ['https://hpc-ai.com/api', 'https://evil-hpc-ai.com/api', false]
  ])('%s → %s: %s', (a, b, same) => {
    expect(sameSite(new URL(a), new URL(b))).toBe(same)
  })

  it('follows a same-site Location, relative ones too, and drops a fragment', () => {
    expect(decideRedirect('https://www.hpc-ai.com/api/instance/list#x', from, 0)).toEqual({
      follow: true,
      url: new URL('https://www.hpc-ai.com/api/instance/list')
    })
    expect(decideRedirect('/api/v2/instance/list', from, 0)).toMatchObject({
      follow: true,
      url: new URL('https://hpc-ai.com/api/v2/instance/list')
    })
  })

  it('refuses another site, credentials in the address, no Location, and loops; naming the address', () => {
    expect(decideRedirect('https://collector.example/steal', from, 0)).toEqual({
      follow: false,
      reason: 'other-site',
      shown: 'https://collector.example/steal'
    })
    expect(decideRedirect('https://user:pw@www.hpc-ai.com/api', from, 0)).toMatchObject({ follow: false, reason: 'other-site' })
    expect(decideRedirect(undefined, from, 0)).toMatchObject({ follow: false, reason: 'no-location' })
    expect(decideRedirect('  ', from, 0)).toMatchObject({ follow: false, reason: 'no-location' })
    expect(decideRedirect('https://www.hpc-ai.com/api', from, MAX_REDIRECTS)).toMatchObject({ follow: false, reason: 'too-many' })
    expect(decideRedirect('http://[not a url', from, 0)).toMatchObject({ follow: false, reason: 'other-site' })
    const shown = decideRedirect(`https://evil.example/${'a'.repeat(400)}\r\nSet-Cookie: x`, from, 0)
    expect(shown.follow === false && shown.shown.length).toBeLessThanOrEqual(200)
  })
})
