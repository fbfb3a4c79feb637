/**
 * The shapes Cloud Tray's icons are drawn from, as signed distance functions (negative inside,
 * in the units of a 16-unit square) so any size samples them with anti-aliased edges, and the
 * rasteriser both icon scripts share.
 */
export const circle = (x: number, y: number, cx: number, cy: number, r: number): number => Math.hypot(x - cx, y - cy) - r

export const box = (x: number, y: number, x0: number, y0: number, x1: number, y1: number): number =>
  Math.max(x0 - x, x - x1, y0 - y, y - y1)

/** A box with corners rounded to radius `r` (0: the same as `box`). */
export function roundedBox(x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number): number {
  const qx = Math.abs(x - (x0 + x1) / 2) - ((x1 - x0) / 2 - r)
  const qy = Math.abs(y - (y0 + y1) / 2) - ((y1 - y0) / 2 - r)
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}

/** A line from (ax, ay) to (bx, by) with round ends, `r` thick on each side. */
export function segment(x: number, y: number, ax: number, ay: number, bx: number, by: number, r: number): number {
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) - r
}

/**
 * The cloud: three puffs over a flat base, spanning x 1.8–15, y 2.8–12.4. At tray sizes the
 * base's corners are a pixel; a large icon rounds them (`baseRadius`).
 */
export function cloud(x: number, y: number, baseRadius = 0): number {
  // Rounded, the base runs from the side puffs' widest points (y 9.6) down; only its bottom corners show.
  const base = baseRadius > 0 ? Math.max(roundedBox(x, y, 1.86, 5, 15, 12.4, baseRadius), 9.6 - y) : box(x, y, 2.2, 9, 14.5, 12.4)
  return Math.min(circle(x, y, 5, 9, 3.2), circle(x, y, 9, 7, 4.2), circle(x, y, 12.2, 9.6, 2.8), base)
}

/** A point's coverage (0 or 1) and colour. */
export type Sample = [alpha: number, r: number, g: number, b: number]

/**
 * An RGBA image of `size` px from a 16-unit drawing, sampling `n` × `n` points a pixel: the
 * alpha is the covered share, the colour the covered points' average (so edges fade, not darken).
 */
export function rasterize(size: number, n: number, sample: (x: number, y: number) => Sample): Uint8Array {
  const pixels = new Uint8Array(size * size * 4)
  const scale = 16 / size
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let alpha = 0
      const colour = [0, 0, 0]
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [a, r, g, b] = sample((px + (sx + 0.5) / n) * scale, (py + (sy + 0.5) / n) * scale)
          alpha += a
          colour[0]! += r * a
          colour[1]! += g * a
          colour[2]! += b * a
        }
      }
      const i = (py * size + px) * 4
      if (alpha > 0) for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(colour[c]! / alpha)
      pixels[i + 3] = Math.round((alpha / (n * n)) * 255)
    }
  }
  return pixels
}
