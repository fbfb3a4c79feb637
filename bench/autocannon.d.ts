/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    verifyBody?: (body: string) => boolean
  }
  interface Histogram {
    average: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram & { p99: number }
    errors: number
    timeouts: number
    non2xx: number
    mismatches: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
