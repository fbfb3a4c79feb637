/**
 * Electronegativity lets any line silence a check with `/* eng-disable CHECK_ID *\/`. A silenced
 * check is a decision, and a decision needs its reason written down where the next reader sees it.
 * This module finds every suppression in a source text and says which ones lack a justification
 * or name a check that does not exist (a typo would otherwise silence nothing, quietly).
 *
 * The rule: a comment containing `why:` followed by at least four words, on the suppression's own
 * line or in the comment lines directly above it.
 *
 *   // why: the preload is our own bundled file and exposes only the contract.
 *   preload: join(dir, 'preload.cjs'), // eng-disable PRELOAD_JS_CHECK
 */

export interface Suppression {
  /** 1-based line of the `eng-disable` directive. */
  line: number
  /** Check names as written (ids like PRELOAD_JS_CHECK or class names like PreloadJSCheck). */
  checks: string[]
  /** The `why:` text found for it, or null. */
  justification: string | null
}

export interface SuppressionProblem {
  line: number
  message: string
}

// Same grammar Electronegativity uses (src/util/exceptions.js), so we see exactly what it sees.
const JS_DIRECTIVE = /(?:\/\*|\/\/)[ \t]*eng-disable[ \t]+([\w \t]+)/i
const HTML_DIRECTIVE = /<!--[ \t]*eng-disable[ \t]+([\w \t]+)-->/i
const WHY = /\bwhy:\s*(.+)$/i
const MIN_WHY_WORDS = 4
/** How far above the directive a justification may start (a short comment block). */
const MAX_LOOKBACK_LINES = 6

function isCommentLine(trimmed: string): boolean {
  return (
    trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*') || trimmed.startsWith('<!--') || trimmed.endsWith('-->')
  )
}

function whyText(line: string): string | null {
  const match = WHY.exec(line)
  if (!match?.[1]) return null
  // Strip comment terminators so `why: ... */` counts only its words.
  const text = match[1].replace(/\*\/|-->/g, ' ').trim()
  const words = text.split(/\s+/).filter((w) => /\w/.test(w))
  return words.length >= MIN_WHY_WORDS ? text : null
}

/** Every `eng-disable` directive in `source`, with its justification if one is written. */
export function findSuppressions(source: string): Suppression[] {
  const lines = source.split('\n')
  const found: Suppression[] = []
  lines.forEach((raw, index) => {
    const match = JS_DIRECTIVE.exec(raw) ?? HTML_DIRECTIVE.exec(raw)
    if (!match?.[1]) return
    const checks = match[1]
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
    // `// eng-disable X why: ...` ends the capture at the colon, leaving a trailing "why".
    if (checks.at(-1)?.toLowerCase() === 'why') checks.pop()
    let justification = whyText(raw)
    for (let up = index - 1; justification === null && up >= 0 && index - up <= MAX_LOOKBACK_LINES; up--) {
      const trimmed = (lines[up] ?? '').trim()
      if (!isCommentLine(trimmed)) break
      justification = whyText(trimmed)
    }
    found.push({ line: index + 1, checks, justification })
  })
  return found
}

/**
 * Problems with the suppressions in one file: a missing justification, or a name that matches
 * no Electronegativity check (compared case-insensitively against ids and class names).
 */
export function checkSuppressions(source: string, knownChecks: ReadonlySet<string>): SuppressionProblem[] {
  const problems: SuppressionProblem[] = []
  for (const suppression of findSuppressions(source)) {
    if (suppression.justification === null) {
      problems.push({
        line: suppression.line,
        message: `eng-disable ${suppression.checks.join(' ')} has no justification: add a comment "why: <reason>" on this line or directly above it.`
      })
    }
    for (const check of suppression.checks) {
      if (!knownChecks.has(check.toUpperCase())) {
        problems.push({
          line: suppression.line,
          message: `eng-disable names ${check}, which is not an Electronegativity check (a typo silences nothing).`
        })
      }
    }
  }
  return problems
}
