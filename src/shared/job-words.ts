/**
 * How long a job ran or has been running, in words, for its notification and the job list:
 * seconds while it is short ("3 s", "2 min 5 s"), then minutes, hours and days.
 */
import { formatDuration } from './cost-words'

export function elapsedWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  if (seconds < 600) return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
  return formatDuration(ms)
}
