/**
 * Electronegativity reads .js/.ts/.html but not .svelte, so a Svelte component would escape the
 * gate entirely. We split each component into what Electronegativity can read, keeping line
 * numbers so its findings point at the real file:
 *   - the <script> blocks become a .ts file (every other line left blank);
 *   - the markup, with <script> and <style> blanked, becomes an .html file.
 * And one check of our own that no Electron tool knows: `{@html ...}` inserts raw HTML, the
 * Svelte form of innerHTML, and in a window that holds a session it must be justified.
 */

export interface SvelteParts {
  script: string
  markup: string
}

const BLOCK = /<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/gi

/** Blank every character except newlines, so offsets and line numbers survive. */
function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ')
}

export function splitSvelte(source: string): SvelteParts {
  let script = blank(source)
  let markup = source
  for (const match of source.matchAll(BLOCK)) {
    const [whole, tag, body = ''] = match
    const start = match.index
    const bodyStart = start + whole.indexOf('>') + 1
    if (tag?.toLowerCase() === 'script') {
      script = script.slice(0, bodyStart) + body + script.slice(bodyStart + body.length)
    }
    markup = markup.slice(0, start) + blank(whole) + markup.slice(start + whole.length)
  }
  return { script, markup }
}

export interface RawHtmlUse {
  line: number
  column: number
  sample: string
}

/** Every `{@html ...}` in a component's markup (1-based line, 0-based column). */
export function findRawHtml(source: string): RawHtmlUse[] {
  const { markup } = splitSvelte(source)
  const uses: RawHtmlUse[] = []
  markup.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\{@html\b/g)) {
      uses.push({ line: index + 1, column: match.index, sample: line.trim() })
    }
  })
  return uses
}
