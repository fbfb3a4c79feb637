/**
 * Where a byte buffer can be cut without splitting a UTF-8 sequence: the length of the longest
 * prefix that does not end inside a multi-byte character. Bytes that are not valid UTF-8 (a
 * binary stream, a stray continuation byte) are never held back, so a cut is always found
 * within the last three bytes.
 */
export function utf8SafeLength(bytes: Uint8Array, end = bytes.length): number {
  // Walk back over at most 3 continuation bytes (10xxxxxx) to the lead byte of the last character.
  let index = end - 1
  let continuation = 0
  while (index >= 0 && continuation < 3 && ((bytes[index] ?? 0) & 0xc0) === 0x80) {
    index--
    continuation++
  }
  if (index < 0) return end
  const lead = bytes[index] ?? 0
  const needed = sequenceLength(lead)
  // An ASCII byte, an invalid lead, or a complete sequence: nothing to hold back.
  if (needed <= 1 || continuation + 1 >= needed) return end
  return index
}

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1
  if (lead >= 0xc2 && lead <= 0xdf) return 2
  if (lead >= 0xe0 && lead <= 0xef) return 3
  if (lead >= 0xf0 && lead <= 0xf4) return 4
  return 0
}
