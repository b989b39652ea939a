import { describe, expect, it } from "vitest"
import {
  accountFields,
  type ContractContext,
  createUser,
  dateWithMs,
  newAccount,
  newSession,
  newVerificationToken,
  unique,
} from "./context.js"

/** A string of exactly `length` UTF-16 code units made of `pattern` (no split surrogates). */
function repeatTo(pattern: string, length: number) {
  let out = pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length)
  // Slicing may cut a surrogate pair in half; replace a lone high surrogate by a plain letter.
  if (/[\uD800-\uDBFF]$/.test(out)) out = `${out.slice(0, -1)}x`
  return out
}

export function robustnessTests(t: ContractContext) {
  describe("concurrency", () => {
    it("parallel updateSession calls on one session all succeed and leave one of their values", async () => {
      const user = await createUser(t.adapter)
      const session = await t.adapter.createSession(newSession(user.id))
      const candidates = Array.from({ length: 20 }, (_, i) => dateWithMs((i + 1) * 1000))
      const results = await Promise.all(
        candidates.map((expires) =>
          t.adapter.updateSession({ sessionToken: session.sessionToken, expires }),
        ),
      )
      for (const [i, result] of results.entries()) {
        if (result) expect(result).toEqual({ ...session, expires: candidates[i] })
      }
      const final = await t.adapter.getSessionAndUser(session.sessionToken)
      expect(final?.user).toEqual(user)
      expect(candidates.map((d) => d.getTime())).toContain(final?.session.expires.getTime())
    })

    it("two parallel useVerificationToken calls on one token: exactly one gets it", async () => {
      const token = newVerificationToken()
      await t.adapter.createVerificationToken(token)
      const results = await Promise.all([
        t.adapter.useVerificationToken(token),
        t.adapter.useVerificationToken(token),
      ])
      expect(results.filter((r) => r !== null)).toEqual([token])
    })

    it("ten parallel useVerificationToken calls on one token: exactly one gets it", async () => {
      const token = newVerificationToken()
      await t.adapter.createVerificationToken(token)
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.adapter.useVerificationToken({ identifier: token.identifier, token: token.token }),
        ),
      )
      expect(results.filter((r) => r !== null)).toHaveLength(1)
    })

    it("parallel createUser calls give distinct ids and every user is readable", async () => {
      const users = await Promise.all(Array.from({ length: 20 }, () => createUser(t.adapter)))
      expect(new Set(users.map((u) => u.id)).size).toBe(users.length)
      for (const user of users) expect(await t.adapter.getUser(user.id)).toEqual(user)
    })

    it("parallel sign-ins of one user create independent sessions", async () => {
      const user = await createUser(t.adapter)
      const sessions = await Promise.all(
        Array.from({ length: 10 }, () => t.adapter.createSession(newSession(user.id))),
      )
      const found = await Promise.all(
        sessions.map((s) => t.adapter.getSessionAndUser(s.sessionToken)),
      )
      expect(found.map((f) => f?.session)).toEqual(sessions)
    })
  })

  describe("unicode and long values", () => {
    const names = [
      "Zoë Ångström-Łukasiewicz",
      "👩🏽‍💻 Ada 🦄",
      "עִבְרִית العربية", // right-to-left
      "\u202Eevil\u202C", // bidi override characters are data, kept verbatim
      "e\u0301 (combining) vs é (precomposed)",
      "'; DROP TABLE users; -- \\ \" $1 %s",
    ]

    it("names with emoji, RTL, combining marks and SQL-looking text round-trip", async () => {
      for (const name of names) {
        const user = await createUser(t.adapter, { name })
        expect((await t.adapter.getUser(user.id))?.name).toBe(name)
      }
    })

    it("a very long name (up to the capability limit, 10 000 by default) round-trips", async () => {
      const name = repeatTo("Ωmega 🚀 ", t.capabilities.maxStringLength)
      const user = await createUser(t.adapter, { name })
      expect((await t.adapter.getUser(user.id))?.name).toBe(name)
    })

    it("emails with unicode local parts and domains are found exactly", async () => {
      const emails = [
        `josé.${unique()}@example.com`,
        `用户-${unique()}@例子.广告`,
        `😀+${unique()}@xn--ls8h.la`,
      ]
      for (const email of emails) {
        const user = await createUser(t.adapter, { email })
        expect(await t.adapter.getUserByEmail(email)).toEqual(user)
        // NFC and NFD spellings are different strings: normalising is the core's job.
        if (email !== email.normalize("NFD")) {
          expect(await t.adapter.getUserByEmail(email.normalize("NFD"))).toBeNull()
        }
      }
    })

    it("long provider tokens (a 10 000-character id_token) round-trip", async () => {
      const user = await createUser(t.adapter)
      const account = newAccount(user.id, {
        id_token: repeatTo("eyJ0eXAiOiJKV1QifQ.", t.capabilities.maxStringLength),
        access_token: repeatTo("ya29.a0Af_", t.capabilities.maxStringLength),
        providerAccountId: `ユーザー-${unique()}`,
      })
      await t.adapter.linkAccount(account)
      const stored = await t.adapter.getAccount(account.providerAccountId, account.provider)
      expect(accountFields(stored)).toEqual(accountFields(account))
    })

    it("unicode verification identifiers round-trip and are matched exactly", async () => {
      const token = newVerificationToken({ identifier: `ñandú.${unique()}@bücher.de` })
      await t.adapter.createVerificationToken(token)
      expect(
        await t.adapter.useVerificationToken({
          identifier: token.identifier.normalize("NFD"),
          token: token.token,
        }),
      ).toBeNull()
      expect(await t.adapter.useVerificationToken(token)).toEqual(token)
    })
  })

  describe("dates", () => {
    const dates = [
      new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123)),
      new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(2038, 0, 19, 3, 14, 8, 1)), // just after the 32-bit time_t rollover
      new Date(Date.UTC(2100, 1, 28, 12, 0, 0, 500)),
      new Date(Date.UTC(1970, 0, 1, 0, 0, 0, 1)),
    ]

    it("emailVerified round-trips to the millisecond", async () => {
      for (const emailVerified of dates) {
        const user = await createUser(t.adapter, { emailVerified })
        const stored = await t.adapter.getUser(user.id)
        expect(stored?.emailVerified).toBeInstanceOf(Date)
        expect(stored?.emailVerified?.getTime()).toBe(emailVerified.getTime())
      }
    })

    it("session expiry round-trips to the millisecond through create, read and update", async () => {
      const user = await createUser(t.adapter)
      for (const expires of dates) {
        const session = await t.adapter.createSession(newSession(user.id, { expires }))
        const read = await t.adapter.getSessionAndUser(session.sessionToken)
        expect(read?.session.expires).toBeInstanceOf(Date)
        expect(read?.session.expires.getTime()).toBe(expires.getTime())
        const later = new Date(expires.getTime() + 1)
        await t.adapter.updateSession({ sessionToken: session.sessionToken, expires: later })
        const updated = await t.adapter.getSessionAndUser(session.sessionToken)
        expect(updated?.session.expires.getTime()).toBe(later.getTime())
      }
    })

    it("verification token expiry round-trips to the millisecond", async () => {
      for (const expires of dates) {
        const token = newVerificationToken({ expires })
        await t.adapter.createVerificationToken(token)
        const used = await t.adapter.useVerificationToken(token)
        expect(used?.expires.getTime()).toBe(expires.getTime())
      }
    })
  })

  describe("isolation of returned records", () => {
    it("mutating a returned user or session does not change what is stored", async () => {
      const user = await createUser(t.adapter)
      const session = await t.adapter.createSession(newSession(user.id))
      const read = await t.adapter.getSessionAndUser(session.sessionToken)
      if (!read) throw new Error("session not found")
      read.user.name = "mutated"
      read.session.expires.setTime(0)
      user.email = "mutated@example.com"
      const again = await t.adapter.getSessionAndUser(session.sessionToken)
      expect(again?.user.name).toBe("Ada Lovelace")
      expect(again?.user.email).not.toBe("mutated@example.com")
      expect(again?.session.expires.getTime()).toBe(session.expires.getTime())
    })
  })
}
