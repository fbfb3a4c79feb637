/**
 * Reading request bodies field by field, in the order a caller asks, so the first problem in
 * the spec's order is the one reported. Every message names the field as `field "<dotted.path>"`
 * — the client pulls the path out of that phrase to point the form at the right input. A value
 * out of its bounds (too long, too big, not whole) is a `limit`: a reader that collects them
 * (LimitCollector) reports every field over its limit in one answer, joined by "; ".
 */

export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** `shape`: unset or of the wrong type (reading stops there); `limit`: a value past its bounds. */
    readonly kind: 'shape' | 'limit' = 'shape'
  ) {
    super(message)
  }
}

/**
 * Gathers limit errors while a body is read, so one answer names every field over its limit:
 * `check` reads a field and keeps a limit error (answering `fallback`), a shape error ends the
 * reading at once; `finish` (or a later error, through `wrap`) reports them all.
 */
export class LimitCollector {
  private readonly found: FieldError[] = []

  check<T>(read: () => T, fallback: T): T {
    try {
      return read()
    } catch (error) {
      if (!(error instanceof FieldError) || error.kind !== 'limit') throw error
      this.found.push(error)
      return fallback
    }
  }

  /** Runs a whole reading: any error it ends with carries the limits found before it. */
  wrap<T>(read: () => T): T {
    let value: T
    try {
      value = read()
    } catch (error) {
      if (error instanceof FieldError && this.found.length > 0) throw this.combined([...this.found, error])
      throw error
    }
    if (this.found.length > 0) throw this.combined(this.found)
    return value
  }

  private combined(errors: FieldError[]): FieldError {
    return new FieldError(errors[0]!.field, errors.map((error) => error.message).join('; '), 'limit')
  }
}

export type Body = Record<string, unknown>

export function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function present(body: Body, key: string, path: string): unknown {
  const value = Object.hasOwn(body, key) ? body[key] : undefined
  // null is what a form sends for an empty input: the field is as unset as if absent.
  if (value === undefined || value === null) throw new FieldError(path, `field "${path}" is not set`)
  return value
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function wrongType(path: string, expected: string, value: unknown): FieldError {
  return new FieldError(path, `field "${path}" must be ${expected}, not ${describe(value)}`)
}

export function requireString(body: Body, key: string, path = key, options: { nonEmpty?: boolean; max?: number } = {}): string {
  const value = present(body, key, path)
  if (typeof value !== 'string') throw wrongType(path, 'a string', value)
  if (options.nonEmpty && value.trim() === '') throw new FieldError(path, `field "${path}" must not be empty`)
  if (options.max !== undefined && value.length > options.max)
    throw new FieldError(path, `field "${path}" must be at most ${options.max} characters long`, 'limit')
  return value
}

export function requireBoolean(body: Body, key: string, path = key): boolean {
  const value = present(body, key, path)
  if (typeof value !== 'boolean') throw wrongType(path, 'true or false', value)
  return value
}

export function requireInteger(body: Body, key: string, path = key, range: { min: number; max: number }): number {
  const value = present(body, key, path)
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(path, 'a number', value)
  if (!Number.isInteger(value)) throw new FieldError(path, `field "${path}" must be a whole number, not ${value}`, 'limit')
  if (value < range.min || value > range.max)
    throw new FieldError(path, `field "${path}" must be between ${range.min} and ${range.max}, not ${value}`, 'limit')
  return value
}

export function requireObject(body: Body, key: string, path = key): Body {
  const value = present(body, key, path)
  if (!isObject(value)) throw wrongType(path, 'an object', value)
  return value
}

export function requireArray(body: Body, key: string, path = key): unknown[] {
  const value = present(body, key, path)
  if (!Array.isArray(value)) throw wrongType(path, 'an array', value)
  return value
}

/** Absent or null → the default; otherwise the same checks as when required. */
export function optional<T>(body: Body, key: string, fallback: T, read: () => T): T {
  const value = Object.hasOwn(body, key) ? body[key] : undefined
  return value === undefined || value === null ? fallback : read()
}

/** `{pager: {currentPage, pageSize}}`, pages from 1. */
export function readPager(body: Body, maxPageSize: number): { currentPage: number; pageSize: number } {
  const pager = requireObject(body, 'pager')
  const currentPage = requireInteger(pager, 'currentPage', 'pager.currentPage', { min: 1, max: 1_000_000 })
  const pageSize = requireInteger(pager, 'pageSize', 'pager.pageSize', { min: 1, max: maxPageSize })
  return { currentPage, pageSize }
}
