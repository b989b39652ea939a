// Token module on the Web Crypto backend (jwe-web.ts: jose over crypto.subtle) against
// @auth/core/jwt, both bundled for a runtime without node:crypto (bench/runtimes.mjs does
// that and runs the bundle on Node, Deno and Bun). Web APIs only: this runs on all of them.
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt"
import { decode, encode } from "@latchkey/core/jwt"
import { runScenario } from "./harness.mjs"
import { rotation, SALT, SECRET, session } from "./token-inputs.mjs"

/** `{ [scenario]: { latchkey, authjs } }`, each an operation, after checking both sides. */
export async function webTokenScenarios() {
  const token = await encode({ token: session, secret: SECRET, salt: SALT })
  // Sanity: each side reads the other's token, so both really do the whole work.
  if ((await authjsDecode({ token, secret: SECRET, salt: SALT }))?.sub !== session.sub)
    throw new Error("authjs decode")
  const theirs = await authjsEncode({ token: session, secret: SECRET, salt: SALT })
  if ((await decode({ token: theirs, secret: rotation, salt: SALT }))?.sub !== session.sub)
    throw new Error("latchkey decode")

  return {
    "encode: session payload": {
      latchkey: () => encode({ token: session, secret: SECRET, salt: SALT }),
      authjs: () => authjsEncode({ token: session, secret: SECRET, salt: SALT }),
    },
    "decode: valid, 1 secret": {
      latchkey: () => decode({ token, secret: SECRET, salt: SALT }),
      authjs: () => authjsDecode({ token, secret: SECRET, salt: SALT }),
    },
    "decode: 3 secrets, match last": {
      latchkey: () => decode({ token, secret: rotation, salt: SALT }),
      authjs: () => authjsDecode({ token, secret: rotation, salt: SALT }),
    },
  }
}

/** ops/s medians per scenario: `{ [scenario]: { latchkey, authjs } }`. */
export async function benchWebTokens() {
  const results = {}
  for (const [name, contenders] of Object.entries(await webTokenScenarios())) {
    results[name] = await runScenario(contenders)
  }
  return results
}
