/**
 * Waiting in a test for something only a probe can see (a list read again, a file on disk, an
 * event in a log): asks every 50 ms until the probe gives a value, which it returns, or throws
 * after `timeoutMs` saying what it waited for (and, with `explain`, what was seen instead).
 * Where the code under test can wake the test itself, `Waiters` (main/ssh/testing) waits without polling.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: { timeoutMs?: number; explain?: () => string | Promise<string> } = {}
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000)
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) {
      const seen = options.explain ? await options.explain() : ''
      throw new Error(`timed out waiting for ${what}${seen ? `; ${seen}` : ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
