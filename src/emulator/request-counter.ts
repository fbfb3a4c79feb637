/**
 * The /api requests the emulator received (faulted ones included), in all and per API route
 * (`/instance/list`), so a test or benchmark can count one kind of request among the rest (the
 * app also reads the balance and the catalog on timers of its own).
 */
export class RequestCounter {
  private total = 0
  private readonly byRoute = new Map<string, number>()

  /** `route`: the API route, when it is one the emulator serves (unknown paths count in the total only). */
  count(route: string | undefined): void {
    this.total++
    if (route !== undefined) this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1)
  }

  /** All requests, or those to one route. */
  of(route?: string): number {
    return route === undefined ? this.total : (this.byRoute.get(route) ?? 0)
  }

  reset(): void {
    this.total = 0
    this.byRoute.clear()
  }
}
