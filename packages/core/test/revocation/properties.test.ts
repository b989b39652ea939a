/**
 * Property: no sequence of sign-in, sign-out, "sign out everywhere" and token rotation lets a
 * revoked session read a session — with any cookie ever issued, copies included — and every
 * session never revoked still reads (strict mode; reissue mode re-issuing on every read).
 */
import fc from "fast-check"
import { afterEach, describe, expect, it, vi } from "vitest"
import { revokeUserSessions } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import type { Jar } from "../auth/helpers.js"
import { backends, copyJar, jwtConfig, readSession, signIn, signOut } from "./helpers.js"

type Command =
  | { kind: "signIn" }
  | { kind: "signOut"; pick: number }
  | { kind: "revokeAll" }
  | { kind: "rotate"; pick: number }
  | { kind: "read"; pick: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ kind: "signIn" as const }),
  fc.record({ kind: fc.constant("signOut" as const), pick: fc.nat() }),
  fc.constant({ kind: "revokeAll" as const }),
  fc.record({ kind: fc.constant("rotate" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("read" as const), pick: fc.nat() }),
)

afterEach(() => {
  vi.useRealTimers()
})

async function run(config: AuthConfig, commands: Command[]): Promise<void> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  const revoked: boolean[] = []
  const cookies: { session: number; jar: Jar }[] = []
  const pick = (n: number) => cookies[n % cookies.length]!
  for (const c of commands) {
    vi.setSystemTime(Date.now() + 2_000)
    if (c.kind === "signIn") {
      revoked.push(false)
      cookies.push({ session: revoked.length - 1, jar: await signIn(config) })
    } else if (cookies.length === 0) {
    } else if (c.kind === "signOut") {
      const { session, jar } = pick(c.pick)
      const live = !revoked[session]
      await signOut(config, copyJar(jar))
      // Only a live session's cookie is decodable and revocable; a dead one changes nothing.
      if (live) revoked[session] = true
    } else if (c.kind === "revokeAll") {
      await revokeUserSessions(config, "user-alice")
      revoked.fill(true)
    } else {
      const { session, jar } = pick(c.pick)
      const copy = copyJar(jar)
      const read = await readSession(config, copy)
      if (revoked[session]) expect(read).toBeNull()
      else expect(read).not.toBeNull()
      // A rotation keeps both the old cookie and the re-issued one in circulation.
      if (c.kind === "rotate" && read) cookies.push({ session, jar: copy })
    }
  }
}

describe.each(backends)("revocation properties with the state in the $name", ({ extra }) => {
  for (const session of [
    { revocation: "strict", updateAge: 3600 },
    { revocation: "reissue", updateAge: 0 },
  ] as const) {
    it(`${session.revocation}: a revoked session never reads, a live one always does`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
          await run(jwtConfig(extra(), session), commands)
        }),
        { numRuns: 40 },
      )
    })
  }
})
