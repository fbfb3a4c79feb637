/**
 * The persistent terminals' witness: a counter that prints `tick <n>` every 100 ms in a tab. What
 * the tab shows (its xterm buffer) proves a session survived a dropped connection or a restart:
 * the ticks are still coming, and none is missing between the first and the last.
 */

/** Typed into the tab: a POSIX loop, so any login shell runs it. */
export const COUNTER = 'i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.1; done\n'

/** The tick numbers in a terminal's lines, in order (the typed command line itself has none). */
export function ticks(lines: readonly string[]): number[] {
  const found: number[] = []
  for (const line of lines) {
    const match = /^tick (\d+)\s*$/.exec(line)
    if (match) found.push(Number(match[1]))
  }
  return found
}

/** Where the ticks skip or repeat; empty when they run 1, 2, 3, … without a gap. */
export function tickGaps(numbers: readonly number[]): string[] {
  const problems: string[] = []
  if (numbers[0] !== undefined && numbers[0] !== 1) problems.push(`starts at ${numbers[0]}`)
  for (let index = 1; index < numbers.length; index++) {
    const [before, now] = [numbers[index - 1] as number, numbers[index] as number]
    if (now !== before + 1) problems.push(`${before} → ${now}`)
  }
  return problems
}

/** The highest tick shown so far (0: none). */
export function lastTick(lines: readonly string[]): number {
  return ticks(lines).at(-1) ?? 0
}
