// The cost of Latchkey's password hash itself (the `Password` provider's default hasher) on one
// runtime: argon2id at OWASP's parameters (hash-wasm, WebAssembly) and the PBKDF2-SHA-256
// fallback at 600,000 iterations (WebCrypto), ms per verify and per new hash, median of a few.
// Web APIs only: bench/password-runtimes.mjs bundles it for Deno and Bun.
// The hasher module alone (internal, from the build): the provider module also loads the mail
// transport, which needs node: modules a Deno or Bun bundle of this file should not carry.
import { createPasswordHasher } from "../packages/core/dist/features/password/hash.js"

const PASSWORD = "tangerine-orbit-cabinet"
const RUNS = 7

async function msPerCall(fn) {
  await fn() // the first call compiles the WebAssembly module
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)[RUNS >> 1]
}

export async function passwordHashCost() {
  const results = {}
  for (const algorithm of ["argon2id", "pbkdf2-sha256"]) {
    const hasher = createPasswordHasher({ algorithm })
    const stored = await hasher.hash(PASSWORD)
    if (!(await hasher.verify(stored, PASSWORD))) throw new Error(`${algorithm}: no match`)
    results[algorithm] = {
      verify: await msPerCall(() => hasher.verify(stored, PASSWORD)),
      hash: await msPerCall(() => hasher.hash(PASSWORD)),
    }
  }
  return results
}
