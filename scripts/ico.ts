/**
 * Writes Windows .ico files: a directory of PNG-compressed images (Vista+ reads PNG entries at
 * every size). Windows picks the entry that fits the display scale (the tray at 100–300 %: 16 to
 * 48 px), where one PNG would be scaled and blurred.
 */
export function encodeIco(images: readonly { size: number; png: Uint8Array }[]): Buffer {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2) // 1: icon
  header.writeUInt16LE(images.length, 4)
  const directory = Buffer.alloc(16 * images.length)
  let offset = 6 + directory.length
  images.forEach(({ size, png }, index) => {
    const at = index * 16
    directory.writeUInt8(size >= 256 ? 0 : size, at) // 0 means 256
    directory.writeUInt8(size >= 256 ? 0 : size, at + 1)
    directory.writeUInt8(0, at + 2) // no palette
    directory.writeUInt8(0, at + 3)
    directory.writeUInt16LE(1, at + 4) // colour planes
    directory.writeUInt16LE(32, at + 6) // bits per pixel
    directory.writeUInt32LE(png.length, at + 8)
    directory.writeUInt32LE(offset, at + 12)
    offset += png.length
  })
  return Buffer.concat([header, directory, ...images.map(({ png }) => Buffer.from(png))])
}

/** The sizes an .ico holds (for tests): each entry's width. */
export function icoSizes(ico: Uint8Array): number[] {
  const buffer = Buffer.from(ico)
  const count = buffer.readUInt16LE(4)
  return Array.from({ length: count }, (_unused, index) => buffer.readUInt8(6 + index * 16) || 256)
}
