/**
 * A database session token that carries its own sign-in facts and the account's state stamp,
 * for adapters that store neither (an Auth.js adapter: Prisma, Drizzle, … have no `authTime`,
 * `amr` or session-version columns). Without them no such session could ever count as a recent
 * sign-in, and a claim or a reset could not end it (docs/design/pending-grants.md).
 *
 * `<random>~f1.<auth time>.<stamp>.<unproven>.<amr>`: numbers in base 36, `amr` values joined by
 * `+`. Nothing in it is secret, and nothing in it can be changed: the whole token is the row's
 * key, so a token with other facts finds no row. A token without the suffix (Auth.js's own, or
 * one from before this format) has no facts: its sign-in time is unknown, as before.
 */

export interface SessionTokenFacts {
  /** Sign-in time, seconds since the epoch. */
  authTime: number
  /** How the user signed in (RFC 8176 values). */
  amr: string[]
  /** The account's state stamp when the session was issued (`accountStamp`). */
  stamp: number
  /** Whether the account's address was unproven when the session was issued. */
  unproven: boolean
}

const MARK = "~f1."
/** RFC 8176 values are short lower-case words; anything else is not ours. */
const AMR_VALUE = /^[a-z0-9]{1,16}$/
const FACTS = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})\.([01])\.([a-z0-9+]{0,120})$/

/** `random` with `facts` appended. */
export function withTokenFacts(random: string, facts: SessionTokenFacts): string {
  const amr = facts.amr.filter((v) => AMR_VALUE.test(v)).join("+")
  const unproven = facts.unproven ? "1" : "0"
  return `${random}${MARK}${facts.authTime.toString(36)}.${facts.stamp.toString(36)}.${unproven}.${amr}`
}

/** The facts a token carries, or `undefined` for a token without them (or not of this shape). */
export function tokenFacts(sessionToken: string): SessionTokenFacts | undefined {
  const at = sessionToken.lastIndexOf(MARK)
  if (at <= 0) return undefined
  const match = FACTS.exec(sessionToken.slice(at + MARK.length))
  if (!match) return undefined
  const [, time, stamp, unproven, amr] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ]
  const authTime = Number.parseInt(time, 36)
  const parsedStamp = Number.parseInt(stamp, 36)
  if (!Number.isSafeInteger(authTime) || !Number.isSafeInteger(parsedStamp)) return undefined
  return {
    authTime,
    amr: amr === "" ? [] : amr.split("+").filter((v) => AMR_VALUE.test(v)),
    stamp: parsedStamp,
    unproven: unproven === "1",
  }
}
