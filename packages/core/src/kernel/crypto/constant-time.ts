/**
 * Equality of secret-dependent bytes in time that depends only on the length, so an attacker
 * timing responses learns nothing about how many leading bytes matched.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  // The length is not secret here (fixed-size HMACs and tokens), so leaving early on it is fine.
  if (a.byteLength !== b.byteLength) return false
  let diff = 0
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}
