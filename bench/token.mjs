// Token module: Latchkey vs @auth/core/jwt on the same inputs, plus the raw node:crypto floor
// (key derived once, AES-256-CBC + HMAC-SHA-512 of the same bytes, no JOSE work at all).

import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto"
import {
  decode as authjsDecode,
  encode as authjsEncode,
  getToken as authjsGetToken,
} from "@auth/core/jwt"
import { decode, encode, getToken } from "@latchkey/core/jwt"
import { fmt, printTable, ratio, runScenario } from "./harness.mjs"
import { rotation, SALT, SECRET, session } from "./token-inputs.mjs"

const big = { ...session, blob: "x".repeat(3 * 1024) }

// The floor: what A256CBC-HS512 itself costs with a precomputed key.
const key = Buffer.from(
  hkdfSync("sha256", SECRET, SALT, `Auth.js Generated Encryption Key (${SALT})`, 64),
)
const macKey = key.subarray(0, 32)
const encKey = key.subarray(32)
const aad = Buffer.from("eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0")
const al = Buffer.alloc(8)
al.writeBigUInt64BE(BigInt(aad.length * 8))
function floorSeal(plaintext) {
  const iv = randomBytes(16)
  const c = createCipheriv("aes-256-cbc", encKey, iv)
  const ct = Buffer.concat([c.update(plaintext), c.final()])
  const tag = createHmac("sha512", macKey)
    .update(aad)
    .update(iv)
    .update(ct)
    .update(al)
    .digest()
    .subarray(0, 32)
  return { iv, ct, tag }
}
function floorOpen({ iv, ct, tag }) {
  const t = createHmac("sha512", macKey)
    .update(aad)
    .update(iv)
    .update(ct)
    .update(al)
    .digest()
    .subarray(0, 32)
  if (!timingSafeEqual(t, tag)) throw new Error("tag")
  const d = createDecipheriv("aes-256-cbc", encKey, iv)
  return Buffer.concat([d.update(ct), d.final()])
}
const sessionBytes = Buffer.from(JSON.stringify({ ...session, iat: 1, exp: 2, jti: "x" }))
const sealed = floorSeal(sessionBytes)

const tryNull = async (fn) => {
  try {
    return await fn()
  } catch {
    return null
  }
}

export async function benchTokens() {
  const token = await encode({ token: session, secret: SECRET, salt: SALT })
  const tampered = `${token.slice(0, -3)}${token.at(-3) === "A" ? "B" : "A"}${token.slice(-2)}`
  const garbage = "eyJhbGciOi.this-is.not.a.token"
  const bigToken = await encode({
    token: { ...session, blob: "y".repeat(6000) },
    secret: SECRET,
    salt: SALT,
  })
  const chunkCookie = [bigToken.slice(0, 3936), bigToken.slice(3936)]
    .map((v, i) => `${SALT}.${i}=${v}`)
    .join("; ")
  // Latchkey remembers the tokens it has opened (512 of them, oldest out): cycling through
  // twice as many makes every decode a first one, as for a cookie this process has not seen.
  const fresh = await Promise.all(
    Array.from({ length: 1024 }, () => encode({ token: session, secret: SECRET, salt: SALT })),
  )
  let next = 0
  const freshToken = () => fresh[next++ % fresh.length]
  const cookieReq = new Request("http://localhost/", { headers: { cookie: `${SALT}=${token}` } })
  const chunkReq = new Request("http://localhost/", { headers: { cookie: chunkCookie } })
  const bearerReq = new Request("http://localhost/", {
    headers: { authorization: `Bearer ${token}` },
  })

  const scenarios = [
    [
      "encode: session payload",
      {
        latchkey: () => encode({ token: session, secret: SECRET, salt: SALT }),
        authjs: () => authjsEncode({ token: session, secret: SECRET, salt: SALT }),
        floor: () => floorSeal(sessionBytes),
      },
    ],
    [
      "encode: 3 KB payload",
      {
        latchkey: () => encode({ token: big, secret: SECRET, salt: SALT }),
        authjs: () => authjsEncode({ token: big, secret: SECRET, salt: SALT }),
      },
    ],
    [
      "decode: valid, 1 secret",
      {
        latchkey: () => decode({ token: freshToken(), secret: SECRET, salt: SALT }),
        authjs: () => authjsDecode({ token, secret: SECRET, salt: SALT }),
        floor: () => JSON.parse(floorOpen(sealed)),
      },
    ],
    [
      "decode: the same token again",
      {
        latchkey: () => decode({ token, secret: SECRET, salt: SALT }),
        authjs: () => authjsDecode({ token, secret: SECRET, salt: SALT }),
        floor: () => JSON.parse(floorOpen(sealed)),
      },
    ],
    [
      "decode: 3 secrets, match last",
      {
        latchkey: () => decode({ token: freshToken(), secret: rotation, salt: SALT }),
        authjs: () => authjsDecode({ token, secret: rotation, salt: SALT }),
      },
    ],
    [
      "decode: tampered",
      {
        latchkey: () => decode({ token: tampered, secret: SECRET, salt: SALT }),
        authjs: () => tryNull(() => authjsDecode({ token: tampered, secret: SECRET, salt: SALT })),
      },
    ],
    [
      "decode: garbage",
      {
        latchkey: () => decode({ token: garbage, secret: SECRET, salt: SALT }),
        authjs: () => tryNull(() => authjsDecode({ token: garbage, secret: SECRET, salt: SALT })),
      },
    ],
    [
      "getToken: cookie",
      {
        latchkey: () => getToken({ req: cookieReq, secret: SECRET }),
        authjs: () => authjsGetToken({ req: cookieReq, secret: SECRET }),
      },
    ],
    [
      "getToken: chunked cookie",
      {
        latchkey: () => getToken({ req: chunkReq, secret: SECRET }),
        authjs: () => authjsGetToken({ req: chunkReq, secret: SECRET }),
      },
    ],
    [
      "getToken: Bearer header",
      {
        latchkey: () => getToken({ req: bearerReq, secret: SECRET }),
        authjs: () => authjsGetToken({ req: bearerReq, secret: SECRET }),
      },
    ],
  ]

  // Sanity: both sides really did the work.
  if ((await decode({ token, secret: rotation, salt: SALT }))?.sub !== session.sub)
    throw new Error("latchkey decode")
  if ((await authjsDecode({ token, secret: SECRET, salt: SALT }))?.sub !== session.sub)
    throw new Error("authjs decode")
  if ((await getToken({ req: chunkReq, secret: SECRET }))?.sub !== session.sub)
    throw new Error("chunked")

  const rows = []
  for (const [name, contenders] of scenarios) {
    const r = await runScenario(contenders)
    rows.push([
      name,
      fmt(r.latchkey),
      fmt(r.authjs),
      ratio(r.latchkey, r.authjs),
      r.floor ? fmt(r.floor) : "–",
      r.floor ? ratio(r.floor, r.latchkey) : "–",
    ])
  }
  printTable(
    "Token module (ops/s, median of interleaved batches)",
    ["scenario", "Latchkey", "@auth/core", "Latchkey ÷ Auth.js", "raw floor", "floor ÷ Latchkey"],
    rows,
  )
}
