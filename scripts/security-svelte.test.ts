import { describe, expect, it } from 'vitest'
import { findRawHtml, splitSvelte } from './security-svelte'

const COMPONENT = [
  '<script lang="ts">', // 1
  '  let name = $state("")', // 2
  '</script>', // 3
  '', // 4
  '<p>{name}</p>', // 5
  '<div>{@html name}</div>', // 6
  '<style>', // 7
  '  p { color: red }', // 8
  '</style>' // 9
].join('\n')

describe('splitSvelte', () => {
  it('keeps script lines where they were and blanks everything else', () => {
    const { script } = splitSvelte(COMPONENT)
    const lines = script.split('\n')
    expect(lines).toHaveLength(9)
    expect(lines[1]).toBe('  let name = $state("")')
    expect(lines[4]?.trim()).toBe('')
    expect(lines[7]?.trim()).toBe('')
  })

  it('keeps markup lines where they were, without script or style', () => {
    const { markup } = splitSvelte(COMPONENT)
    const lines = markup.split('\n')
    expect(lines).toHaveLength(9)
    expect(lines[4]).toBe('<p>{name}</p>')
    expect(markup).not.toContain('$state')
    expect(markup).not.toContain('color: red')
  })
})

describe('findRawHtml', () => {
  it('finds {@html} in markup with its position', () => {
    expect(findRawHtml(COMPONENT)).toEqual([{ line: 6, column: 5, sample: '<div>{@html name}</div>' }])
  })

  it('ignores the text "{@html" inside a script string', () => {
    expect(findRawHtml('<script>const s = "{@html x}"</script>\n<p>hi</p>')).toEqual([])
  })
})
