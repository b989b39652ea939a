/**
 * Password hashing for the `Password` provider. Nothing here is hand-rolled: argon2id comes
 * from `hash-wasm` (WebAssembly), PBKDF2 from WebCrypto (`crypto.subtle`), bcrypt from
 * `bcryptjs`; this module only picks one, formats the result and reads it back.
 *
 * Why these:
 * - **argon2id** (OWASP Password Storage Cheat Sheet: m=19 MiB, t=2, p=1) wherever the runtime
 *   may compile WebAssembly at run time (Node, Deno, Bun). `hash-wasm` over the native `argon2`
 *   package: one build for every runtime that has WebAssembly, no install script, no binary per
 *   platform. Measured on the project's 2-core CI-class machine (Node 22, under load): about
 *   90 ms per hash (150 ms for the first, which compiles the module).
 * - **PBKDF2-HMAC-SHA-256 at 600,000 iterations** (OWASP's figure for it) where it may not:
 *   Cloudflare workerd and Vercel Edge refuse `WebAssembly.compile` of bytes (and load no
 *   native addon). WebCrypto has PBKDF2 on every runtime. About 180 ms per hash on the same
 *   machine.
 * - **bcrypt, verify only** (`$2a$`, `$2b$`, `$2y$`): the hashes an Auth.js credentials setup
 *   usually holds. They verify, and are replaced by the current algorithm at the next sign-in.
 *
 * **An imported bcrypt hash must not tell accounts apart** (issue 42). A cost-12 bcrypt check
 * takes about three times an argon2id one, so an account still on its imported hash answered a
 * wrong password far slower than an unknown address (checked against an argon2id dummy).
 * Rehashing at import cannot help: without the password, a bcrypt hash can only be wrapped
 * (argon2id over bcrypt), and checking the wrapped hash costs both. So the checks are equalised
 * instead: while bcrypt hashes are in play, every check does one run of the current algorithm
 * and bcrypt work of the highest imported cost — a bcrypt account pays the current algorithm on
 * top of its own check (and the rounds it is short of that cost), every other check (a current
 * hash, the dummy of an unknown address) pays one bcrypt run. Which accounts still hold bcrypt
 * cannot be heard; what it costs is one bcrypt run per check until the import is done.
 * "In play" means `importedBcryptCost` was given, or this process has checked a bcrypt hash
 * (its cost is learned, up to `MAX_LEARNED_BCRYPT_COST`, for every hasher of the process). An
 * app that never imported bcrypt pays nothing.
 *
 * Every hash is a PHC-style string that names its algorithm and parameters
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, `$pbkdf2-sha256$i=600000$<salt>$<hash>`,
 * base64 without padding), so a hash made on one runtime verifies on another that has the
 * algorithm, and a hash made with older parameters is recognised and upgraded at sign-in. An
 * argon2id hash cannot be verified on a runtime without WebAssembly: an app that serves sign-in
 * from both kinds of runtime sets `algorithm: "pbkdf2-sha256"`.
 *
 * Node-only code is never imported: `hash-wasm` and `bcryptjs` are plain JavaScript, loaded with
 * `import()` only when a hash of their kind is made or checked.
 */

import { constantTimeEqual } from "../../kernel/crypto/constant-time.js"
import { randomBytes } from "../../kernel/crypto/random.js"
import { InvalidParameter } from "../../kernel/errors/errors.js"

/** Makes and checks password hashes. Inject your own through `Password({ hasher })`. */
export interface PasswordHasher {
  /** A new hash of `password` (already normalised and within the size bound). */
  hash(password: string): Promise<string>
  /** Whether `password` matches `hash`; `false` (never a throw) for a hash it cannot read. */
  verify(hash: string, password: string): Promise<boolean>
  /** Whether `hash` should be replaced by a new one (other algorithm or weaker parameters). */
  needsRehash(hash: string): Promise<boolean>
}

export type PasswordAlgorithm = "argon2id" | "pbkdf2-sha256"

export interface PasswordHasherOptions {
  /** `"auto"` (default): argon2id where WebAssembly can be compiled, else PBKDF2. */
  algorithm?: PasswordAlgorithm | "auto"
  /** argon2id cost; defaults are OWASP's (memory 19456 KiB, 2 iterations, parallelism 1). */
  argon2?: { memorySize?: number; iterations?: number; parallelism?: number }
  /** PBKDF2-HMAC-SHA-256 iterations (default 600,000, OWASP). */
  pbkdf2Iterations?: number
  /**
   * The highest cost among bcrypt hashes moved into the adapter from elsewhere (`$2b$12$…` is
   * 12), 4 to 31. Every check then also does bcrypt work of this cost, from the first request,
   * so an account still on its imported hash answers as slowly as any other. Without it the
   * cost is learned from the first bcrypt hash this process checks (up to 12): until then such
   * an account is slower to refuse than others. Remove it once no bcrypt hash is left.
   */
  importedBcryptCost?: number
}

export const OWASP_ARGON2ID = Object.freeze({ memorySize: 19456, iterations: 2, parallelism: 1 })
export const OWASP_PBKDF2_SHA256_ITERATIONS = 600_000

/**
 * The highest bcrypt cost learned from the hashes checked: one damaged row (cost 31) must not
 * slow every sign-in of the process to a crawl. Higher imported costs are declared instead.
 */
export const MAX_LEARNED_BCRYPT_COST = 12

/** The highest bcrypt cost (at most the cap above) of any hash this process has checked. */
let learnedBcryptCost = 0

const SALT_BYTES = 16
const HASH_BYTES = 32

/** The hasher the provider uses unless given another. */
export function createPasswordHasher(options: PasswordHasherOptions = {}): PasswordHasher {
  const argon2 = { ...OWASP_ARGON2ID, ...options.argon2 }
  const iterations = options.pbkdf2Iterations ?? OWASP_PBKDF2_SHA256_ITERATIONS
  const importedBcryptCost = checkedBcryptCost(options.importedBcryptCost)
  let chosen: Promise<PasswordAlgorithm> | undefined
  const algorithm = () => {
    if (options.algorithm && options.algorithm !== "auto") return Promise.resolve(options.algorithm)
    chosen ??= canCompileWasm().then((yes) => (yes ? "argon2id" : "pbkdf2-sha256"))
    return chosen
  }
  const hash = async (password: string) =>
    (await algorithm()) === "argon2id"
      ? argon2Hash(password, argon2)
      : pbkdf2Hash(password, iterations)

  /** The work a check of `stored` lacks to cost what every check costs (see the module comment). */
  const equalise = async (stored: string, password: string) => {
    const legacy = Math.max(importedBcryptCost, learnedBcryptCost)
    if (legacy === 0) return
    const own = bcryptCost(stored)
    if (own === null) return bcryptWork(password, legacy)
    await hash(password)
    // Rounds double per cost: 2^own + 2^own + 2^(own+1) + … + 2^(legacy-1) = 2^legacy.
    for (let cost = own; cost < legacy; cost++) await bcryptWork(password, cost)
  }

  return {
    hash,
    async verify(stored, password) {
      const own = bcryptCost(stored)
      if (own !== null && own <= MAX_LEARNED_BCRYPT_COST && own > learnedBcryptCost) {
        learnedBcryptCost = own
      }
      let matches = false
      try {
        if (stored.startsWith("$argon2id$")) matches = await argon2Verify(stored, password)
        else if (stored.startsWith("$pbkdf2-sha256$"))
          matches = await pbkdf2Verify(stored, password)
        else if (own !== null) matches = await bcryptVerify(stored, password)
      } catch {
        // A damaged hash, or argon2id on a runtime without WebAssembly: no match.
      }
      // The padding's own failure (it checks nothing) must not turn an answer into a throw.
      await equalise(stored, password).catch(() => {})
      return matches
    },
    async needsRehash(hash) {
      const target = await algorithm()
      if (target === "argon2id") {
        const p = parseArgon2(hash)
        return (
          p === null ||
          p.m !== argon2.memorySize ||
          p.t !== argon2.iterations ||
          p.p !== argon2.parallelism
        )
      }
      const p = parsePbkdf2(hash)
      return p === null || p.iterations !== iterations
    },
  }
}

/**
 * Whether this runtime lets code compile WebAssembly from bytes (workerd and Vercel Edge
 * do not). Tried on the smallest valid module, once per hasher.
 */
export async function canCompileWasm(): Promise<boolean> {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.compile !== "function") return false
  try {
    await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
    return true
  } catch {
    return false
  }
}

async function argon2Hash(
  password: string,
  cost: { memorySize: number; iterations: number; parallelism: number },
): Promise<string> {
  const { argon2id } = await import("hash-wasm")
  return argon2id({
    password,
    salt: randomBytes(SALT_BYTES),
    ...cost,
    hashLength: HASH_BYTES,
    outputType: "encoded",
  })
}

async function argon2Verify(hash: string, password: string): Promise<boolean> {
  if (parseArgon2(hash) === null) return false
  const { argon2Verify: verify } = await import("hash-wasm")
  return verify({ password, hash })
}

/** The parameters of an argon2id PHC string, or `null` when it is not one. */
export function parseArgon2(hash: string): { m: number; t: number; p: number } | null {
  const match =
    /^\$argon2id\$v=19\$m=(\d{1,8}),t=(\d{1,4}),p=(\d{1,3})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(
      hash,
    )
  if (!match) return null
  return { m: Number(match[1]), t: Number(match[2]), p: Number(match[3]) }
}

/** The parameters of a `$pbkdf2-sha256$` string, or `null` when it is not one. */
export function parsePbkdf2(
  hash: string,
): { iterations: number; salt: Uint8Array; derived: Uint8Array } | null {
  const match = /^\$pbkdf2-sha256\$i=(\d{1,8})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(hash)
  if (!match) return null
  const iterations = Number(match[1])
  if (iterations < 1) return null
  try {
    return { iterations, salt: fromBase64(match[2]!), derived: fromBase64(match[3]!) }
  } catch {
    return null
  }
}

async function pbkdf2(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  bytes: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  )
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    bytes * 8,
  )
  return new Uint8Array(bits)
}

async function pbkdf2Hash(password: string, iterations: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const derived = await pbkdf2(password, salt, iterations, HASH_BYTES)
  return `$pbkdf2-sha256$i=${iterations}$${toBase64(salt)}$${toBase64(derived)}`
}

async function pbkdf2Verify(hash: string, password: string): Promise<boolean> {
  const parsed = parsePbkdf2(hash)
  if (!parsed || parsed.derived.byteLength < 16 || parsed.derived.byteLength > 64) return false
  const salt = new Uint8Array(parsed.salt)
  const derived = await pbkdf2(password, salt, parsed.iterations, parsed.derived.byteLength)
  return constantTimeEqual(derived, parsed.derived)
}

/** The cost of a bcrypt hash (`$2b$12$…` → 12), or `null` when it is not one. */
export function bcryptCost(hash: string): number | null {
  const match = /^\$2[aby]\$(\d\d)\$/.exec(hash)
  return match ? Number(match[1]) : null
}

function checkedBcryptCost(cost: number | undefined): number {
  if (cost === undefined) return 0
  if (!Number.isInteger(cost) || cost < 4 || cost > 31) {
    throw new InvalidParameter(
      "hasher.importedBcryptCost",
      "must be the highest cost of the imported bcrypt hashes, a whole number from 4 to 31 (the number after $2b$)",
    )
  }
  return cost
}

async function bcryptVerify(hash: string, password: string): Promise<boolean> {
  const bcrypt = await import("bcryptjs")
  const compare = (bcrypt.default ?? bcrypt).compare
  return compare(password, hash)
}

/** One bcrypt run of `cost`, its result thrown away: the time a check of such a hash takes. */
async function bcryptWork(password: string, cost: number): Promise<void> {
  const bcrypt = await import("bcryptjs")
  const { hash, encodeBase64 } = bcrypt.default ?? bcrypt
  // A salt of our own bytes: bcryptjs would draw its own through node's crypto where it can.
  const salt = `$2b$${String(cost).padStart(2, "0")}$${encodeBase64(randomBytes(16), 16)}`
  await hash(password, salt)
}

/** Standard base64 without padding (the PHC string format). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/=+$/, "")
}

function fromBase64(text: string): Uint8Array {
  const padded = text + "=".repeat((4 - (text.length % 4)) % 4)
  const binary = atob(padded)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}
