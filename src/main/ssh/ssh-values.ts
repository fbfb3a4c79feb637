/**
 * What the cloud may say about where an instance answers SSH: the login name, the host (name,
 * IPv4 or IPv6 address) and the port. These strings come from the server and end up in a
 * shell command the user pastes, in ~/.ssh/config and in known_hosts, so each is held to a
 * shape OpenSSH accepts and none of these places can misread: no whitespace or control
 * characters (a line break starts a new config line), no quotes, `#` (a comment), `%` (an ssh
 * config token), `$`, backquotes or other shell syntax, and no leading `-` (an option).
 *
 * Pure (no Node imports), so it can be called wherever the rules of an instance are decided.
 * Each check answers the value to use (a bracketed IPv6 address comes back bare) or, in the
 * user's words, what is wrong with it.
 */

export type SshValue<T> = { ok: true; value: T } | { ok: false; problem: string }

/** Login names: what useradd and the clouds' images use (root, ubuntu, ec2-user, first.last). */
const USER = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/
const USER_MAX = 64
/** One DNS label: letters, digits, `-` inside, `_` as some internal names use. */
const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$/
const HOST_MAX = 253
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

export function sshUser(text: string): SshValue<string> {
  const trouble = commonTrouble(text)
  if (trouble) return { ok: false, problem: trouble }
  if (text.length > USER_MAX) return { ok: false, problem: `is longer than ${USER_MAX} characters` }
  if (text.startsWith('-')) return { ok: false, problem: 'starts with “-”, which SSH would read as an option' }
  if (!USER.test(text))
    return { ok: false, problem: 'has characters a login name cannot have (only letters, digits, “.”, “_” and “-” are accepted)' }
  return { ok: true, value: text }
}

export function sshHost(text: string): SshValue<string> {
  const trouble = commonTrouble(text)
  if (trouble) return { ok: false, problem: trouble }
  if (text.startsWith('-')) return { ok: false, problem: 'starts with “-”, which SSH would read as an option' }
  // The cloud may write an IPv6 address in brackets as in a URL; SSH wants it bare.
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (bare.includes(':')) {
    return isIpv6(bare) ? { ok: true, value: bare.toLowerCase() } : { ok: false, problem: 'is not a valid IPv6 address' }
  }
  if (IPV4.test(bare)) return { ok: true, value: bare }
  if (bare.length > HOST_MAX) return { ok: false, problem: `is longer than ${HOST_MAX} characters` }
  if (bare.split('.').every((label) => label.length <= 63 && LABEL.test(label))) return { ok: true, value: bare }
  return { ok: false, problem: 'is not a host name or IP address (only letters, digits, “.”, “-” and “_” are accepted)' }
}

export function sshPort(port: number): SshValue<number> {
  return Number.isInteger(port) && port >= 1 && port <= 65_535
    ? { ok: true, value: port }
    : { ok: false, problem: 'is not a port number from 1 to 65535' }
}

/** A value for a message: printable ASCII as is, anything else as `\u{…}`, cut at 60 characters. */
export function shownValue(text: string): string {
  const escaped = Array.from(text.length > 200 ? text.slice(0, 200) : text, (char) => {
    const code = char.codePointAt(0) as number
    return code >= 0x20 && code < 0x7f ? char : `\\u{${code.toString(16)}}`
  }).join('')
  return escaped.length > 60 ? `${escaped.slice(0, 59)}…` : escaped
}

/** The trouble every kind of value can have, named the way a user would see it. */
function commonTrouble(text: string): string | null {
  if (text === '') return 'is empty'
  if (/[\r\n]/.test(text)) return 'contains a line break'
  // C0 and C1 controls, DEL, and Unicode's invisible format characters (bidi overrides, zero width).
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u.test(text)) return 'contains control characters'
  if (/\s/u.test(text)) return 'contains a space'
  const special = /["'`#%$\\;&|<>(){}*?!,=@]/.exec(text)
  if (special) return `contains “${special[0]}”, which SSH or a shell would treat as syntax`
  return null
}

/**
 * An IPv6 literal without a zone (`%` is refused above): eight groups of up to four hex
 * digits, one `::` standing for a run of zero groups, and optionally a dotted IPv4 tail.
 */
function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return false
  const halves = text.split('::')
  if (halves.length > 2) return false
  const groups = (half: string): string[] | null => {
    if (half === '') return []
    const parts = half.split(':')
    const last = parts[parts.length - 1] as string
    const out: string[] = []
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && last.includes('.')) {
        if (!IPV4.test(last)) return null
        out.push('0', '0') // an IPv4 tail counts as two groups
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) {
        out.push(part)
      } else {
        return null
      }
    }
    return out
  }
  const head = groups(halves[0] as string)
  const tail = halves.length === 2 ? groups(halves[1] as string) : []
  if (!head || !tail) return false
  // An IPv4 tail may only end the address.
  if (halves.length === 2 && (halves[0] as string).includes('.')) return false
  const count = head.length + tail.length
  return halves.length === 2 ? count <= 7 : count === 8
}
