/**
 * Injected faults for /api requests: added latency, the next N answers failing with a 5xx, the
 * next N connections dropped without an answer. Counters are taken when a request arrives, so
 * concurrent requests consume them in arrival order. Being "down" (listener closed) lives in
 * listener.ts because it is about the socket, not the request.
 */
export type FaultAction =
  | { kind: 'none' }
  | { kind: 'drop' }
  | { kind: 'lose-answer' }
  | { kind: 'fail'; status: number }
  | { kind: 'redirect'; status: number; location: string }

/** The redirect statuses a service may answer (`faults.redirectNext`). */
export const REDIRECT_STATUSES = [301, 302, 307, 308] as const

/** Turns a success body of one /api route into what a hostile or broken service would answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a rewrite reshapes whatever JSON the route answered, as an attacker would
export type AnswerRewrite = (answer: any) => unknown

export class Faults {
  latencyMs = 0
  private readonly rewrites = new Map<string, AnswerRewrite>()
  private failCount = 0
  private failStatus = 503
  private dropCount = 0
  private loseCount = 0
  /** Only requests to this route (`/instance/create`) lose their answer; undefined: any. */
  private loseRoute: string | undefined
  private redirects: { count: number; status: number; location: string } | undefined

  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0 || ms > 600_000) throw new RangeError('latency must be 0–600000 ms')
    this.latencyMs = ms
  }

  failNext(count: number, status = 503): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('failNext needs a whole number of requests')
    if (!Number.isInteger(status) || status < 500 || status > 599) throw new RangeError('failNext status must be 500–599')
    this.failCount = count
    this.failStatus = status
  }

  dropNext(count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('dropNext needs a whole number of requests')
    this.dropCount = count
  }

  /**
   * The next N requests (to `route` only, when given) are carried out, then their connection is
   * destroyed instead of answered: a reply lost on the way back, the case where a client cannot
   * know whether a create happened.
   */
  loseNextAnswers(count: number, route?: string): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('loseNextAnswers needs a whole number of requests')
    if (route !== undefined && !route.startsWith('/')) throw new RangeError('loseNextAnswers route is a path such as /instance/create')
    this.loseCount = count
    this.loseRoute = route
  }

  /**
   * The next N requests answer `status` (301, 302, 307 or 308) with `Location: location` and are
   * not carried out: a service that moved, or one sending the client somewhere else.
   */
  redirectNext(count: number, status: number, location: string): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('redirectNext needs a whole number of requests')
    if (!(REDIRECT_STATUSES as readonly number[]).includes(status)) throw new RangeError('redirectNext status must be 301, 302, 307 or 308')
    if (typeof location !== 'string' || location === '' || /[\r\n]/.test(location))
      throw new TypeError('redirectNext needs a Location on one line')
    this.redirects = count > 0 ? { count, status, location } : undefined
  }

  /**
   * In-process only (a function cannot travel over HTTP): every success answer of `route` (e.g.
   * `/instance/list`) becomes what `rewrite` returns, as a hostile or broken service would
   * answer: lying totals, repeated ids, odd strings. `null` stops rewriting that route.
   */
  rewriteAnswers(route: string, rewrite: AnswerRewrite | null): void {
    if (rewrite === null) this.rewrites.delete(route)
    else if (typeof rewrite === 'function') this.rewrites.set(route, rewrite)
    else throw new TypeError('rewriteAnswers needs a function, or null to stop')
  }

  /** The answer as the (possibly hostile) service sends it. */
  rewrite(route: string, answer: unknown): unknown {
    const rewrite = this.rewrites.get(route)
    return rewrite ? rewrite(structuredClone(answer)) : answer
  }

  reset(): void {
    this.rewrites.clear()
    this.latencyMs = 0
    this.failCount = 0
    this.dropCount = 0
    this.loseCount = 0
    this.loseRoute = undefined
    this.failStatus = 503
    this.redirects = undefined
  }

  /** What to do with the request that just arrived (to `route`); drops, then lost answers, then failures, then redirects. */
  take(route?: string): FaultAction {
    if (this.dropCount > 0) {
      this.dropCount--
      return { kind: 'drop' }
    }
    if (this.loseCount > 0 && (this.loseRoute === undefined || this.loseRoute === route)) {
      this.loseCount--
      return { kind: 'lose-answer' }
    }
    if (this.failCount > 0) {
      this.failCount--
      return { kind: 'fail', status: this.failStatus }
    }
    if (this.redirects) {
      const { status, location } = this.redirects
      if (--this.redirects.count <= 0) this.redirects = undefined
      return { kind: 'redirect', status, location }
    }
    return { kind: 'none' }
  }
}
