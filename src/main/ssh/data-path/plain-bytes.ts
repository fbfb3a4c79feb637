/**
 * The contract's `Uint8Array`, not a Node Buffer: a Buffer serialises itself through toJSON
 * (`{type: 'Buffer', data: [...]}`) before a JSON replacer can see it, which breaks transports
 * that carry bytes as binary. A view over the same memory costs nothing.
 */
export function plainBytes(data: Uint8Array): Uint8Array {
  return Buffer.isBuffer(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data
}
