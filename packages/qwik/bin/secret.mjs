// `npx latchkey secret`, and the secret `npx latchkey init` writes to `.env`.
import { randomBytes } from "node:crypto"

/** A new AUTH_SECRET: 32 random bytes, base64url. */
export function newSecret() {
  return randomBytes(32).toString("base64url")
}
