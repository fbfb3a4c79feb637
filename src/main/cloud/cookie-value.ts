/**
 * What the `AccessToken` cookie's value may be, for the cloud client's Cookie header and the
 * notebook window's cookie alike: RFC 6265's cookie-octet, nothing to quote. A separator or a
 * control character could smuggle a second cookie, an attribute (`; Domain=…`) or a header; a
 * JWT never holds one.
 */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/

export function isCookieValue(value: string): boolean {
  return COOKIE_OCTETS.test(value)
}
