/**
 * Seconds since the epoch, whole. Plain `Math.floor`: Auth.js truncates with `| 0`, which
 * overflows in January 2038.
 */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}
