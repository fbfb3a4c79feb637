/** Reading a Cookie request header (RFC 6265 §5.4: `name=value` pairs joined by `; `). */

/** Every value of cookie `name`, in header order (a browser may send several for one name). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return []
  const values: string[] = []
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    if (part.slice(0, index).trim() !== name) continue
    let value = part.slice(index + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    values.push(value)
  }
  return values
}
