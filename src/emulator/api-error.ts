/**
 * A refusal the API answers with: an HTTP status (the spec gives none; the README lists our
 * choices) and the JSON body the spec describes — `{message}` alone unless a code is documented.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string; code?: number; values?: Record<string, string> }
  ) {
    super(body.message)
  }
}

export const notFoundInstance = (): ApiError => new ApiError(404, { message: 'ent: instance not found' })
