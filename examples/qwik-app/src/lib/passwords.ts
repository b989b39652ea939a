/**
 * Password hashing with scrypt at the OWASP Password Storage Cheat Sheet parameters
 * (N=2^17, r=8, p=1). Those need 128 MiB, above Node's default `maxmem` of 32 MiB, hence the
 * raised limit. Hashes are self-describing (`scrypt$N$r$p$salt$hash`) so parameters can change
 * later without breaking stored users.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto"

const params = { N: 2 ** 17, r: 8, p: 1 } as const
const KEY_LENGTH = 32
const MAXMEM = 256 * 1024 * 1024

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: MAXMEM },
      (err, key) => (err ? reject(err) : resolve(key)),
    )
  })
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, params)
  return [
    "scrypt",
    params.N,
    params.r,
    params.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$")
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$")
  if (scheme !== "scrypt" || !salt || !hash) return false
  const expected = Buffer.from(hash, "base64url")
  const key = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** A hash of a random password, verified against when the email is unknown so timing tells nothing. */
let decoy: Promise<string> | undefined
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("hex"))
  return decoy
}
