import { describe, expect, it } from 'vitest'
import { checkSuppressions, findSuppressions } from './security-suppressions'

const KNOWN = new Set(['PRELOAD_JS_CHECK', 'PRELOADJSCHECK', 'CSP_GLOBAL_CHECK'])

describe('findSuppressions', () => {
  it.each([
    {
      name: 'why on the line above',
      source: '// why: the preload is our own bundled file.\nfoo() /* eng-disable PRELOAD_JS_CHECK */',
      line: 2,
      justified: true
    },
    {
      name: 'why on the same line',
      source: 'foo() /* eng-disable PRELOAD_JS_CHECK */ // why: it exposes only the contract',
      line: 1,
      justified: true
    },
    {
      name: 'why at the top of a comment block above',
      source: '/*\n * why: the preload is bundled with the app\n * and reviewed in SECURITY.md\n */\nfoo() // eng-disable PRELOAD_JS_CHECK',
      line: 5,
      justified: true
    },
    { name: 'no comment at all', source: 'foo() // eng-disable PRELOAD_JS_CHECK', line: 1, justified: false },
    {
      name: 'a comment without why:',
      source: '// the preload is our own bundled file\nfoo() // eng-disable PRELOAD_JS_CHECK',
      line: 2,
      justified: false
    },
    {
      name: 'a why: too short to say anything',
      source: '// why: safe\nfoo() // eng-disable PRELOAD_JS_CHECK',
      line: 2,
      justified: false
    },
    {
      name: 'a why: separated by code does not count',
      source: '// why: the preload is our own bundled file\nbar()\nfoo() // eng-disable PRELOAD_JS_CHECK',
      line: 3,
      justified: false
    },
    {
      name: 'HTML comment',
      source: '<!-- why: inline styles are needed by xterm -->\n<meta x> <!-- eng-disable CSP_GLOBAL_CHECK -->',
      line: 2,
      justified: true
    }
  ])('$name', ({ source, line, justified }) => {
    const [found, ...rest] = findSuppressions(source)
    expect(rest).toEqual([])
    expect(found?.line).toBe(line)
    expect(found?.justification !== null).toBe(justified)
  })

  it('reads several checks in one directive, and ignores a trailing why', () => {
    const [found] = findSuppressions('x // eng-disable PRELOAD_JS_CHECK CSP_GLOBAL_CHECK why: both are reviewed in SECURITY.md')
    expect(found?.checks).toEqual(['PRELOAD_JS_CHECK', 'CSP_GLOBAL_CHECK'])
    expect(found?.justification).toBe('both are reviewed in SECURITY.md')
  })
})

describe('checkSuppressions', () => {
  it('accepts a justified suppression of a real check', () => {
    expect(checkSuppressions('// why: reviewed, only our own bundled file\nx // eng-disable PreloadJSCheck', KNOWN)).toEqual([])
  })

  it('reports an unjustified suppression with its line and what to do', () => {
    const problems = checkSuppressions('a\nx // eng-disable PRELOAD_JS_CHECK', KNOWN)
    expect(problems).toHaveLength(1)
    expect(problems[0]?.line).toBe(2)
    expect(problems[0]?.message).toMatch(/no justification.*why: <reason>/)
  })

  it('reports a misspelt check, which would silence nothing', () => {
    const problems = checkSuppressions('// why: reviewed, only our own bundled file\nx // eng-disable PRELOAD_CHECK', KNOWN)
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining('PRELOAD_CHECK, which is not')])
  })
})
