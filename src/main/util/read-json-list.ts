/**
 * A list the app keeps in a JSON file of its own (its jobs, its saved tabs), read back: no file,
 * a file that is not JSON, or no list under `key` is an empty start (null); an element the
 * schema refuses is dropped, so one bad element never sinks the rest. `object` is the whole
 * file, for what it keeps beside the list.
 */
import { readFile } from 'node:fs/promises'
import type { z } from 'zod'

export async function readJsonList<S extends z.ZodType>(
  path: string,
  key: string,
  element: S
): Promise<{ items: z.infer<S>[]; object: Record<string, unknown> } | null> {
  let json: unknown
  try {
    json = JSON.parse(await readFile(path, 'utf8'))
  } catch {
    return null
  }
  const object = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {}
  const list: unknown[] = Array.isArray(object[key]) ? object[key] : []
  const items = list.flatMap((entry) => {
    const parsed = element.safeParse(entry)
    return parsed.success ? [parsed.data as z.infer<S>] : []
  })
  return { items, object }
}
