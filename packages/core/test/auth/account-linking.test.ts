/** The account-linking decision table (Auth.js's, with email linking gated on verification). */
import { describe, expect, it } from "vitest"
import {
  type AccountLinkingInput,
  decideAccountLinking,
} from "../../src/kernel/sign-in/account-linking.js"

const alice = { id: "u-alice" }
const bob = { id: "u-bob" }

function decide(input: Partial<AccountLinkingInput>) {
  return decideAccountLinking({
    accountUser: null,
    signedInUser: null,
    userWithSameEmail: null,
    allowDangerousEmailAccountLinking: false,
    emailVerified: false,
    ...input,
  })
}

describe("decideAccountLinking", () => {
  it("known account, nobody signed in → sign in its user", () => {
    expect(decide({ accountUser: alice })).toEqual({
      kind: "sign-in-existing",
      user: alice,
      keepSession: false,
    })
  })

  it("known account of the signed-in user → sign in, keep the session", () => {
    expect(decide({ accountUser: alice, signedInUser: alice })).toEqual({
      kind: "sign-in-existing",
      user: alice,
      keepSession: true,
    })
  })

  it("known account of another user while signed in → not linked", () => {
    expect(decide({ accountUser: bob, signedInUser: alice })).toEqual({
      kind: "error-not-linked",
      reason: "account-of-other-user",
    })
  })

  it("new account while signed in → link to the current user", () => {
    expect(decide({ signedInUser: alice, userWithSameEmail: bob })).toEqual({
      kind: "link-to-current",
      user: alice,
    })
  })

  it("new account, nobody signed in, email unknown → create", () => {
    expect(decide({})).toEqual({ kind: "create" })
  })

  it("new account, email of an existing user, no opt-in → not linked", () => {
    expect(decide({ userWithSameEmail: alice, emailVerified: true })).toEqual({
      kind: "error-not-linked",
      reason: "email-in-use",
    })
  })

  it("opt-in but the provider does not vouch for the email → not linked", () => {
    expect(
      decide({
        userWithSameEmail: alice,
        allowDangerousEmailAccountLinking: true,
        emailVerified: false,
      }),
    ).toEqual({
      kind: "error-not-linked",
      reason: "email-not-verified",
    })
  })

  it("opt-in and a verified email → link by email (to a row whose own email is proved)", () => {
    const proven = { ...alice, emailVerified: new Date("2026-01-01") }
    expect(
      decide({
        userWithSameEmail: proven,
        allowDangerousEmailAccountLinking: true,
        emailVerified: true,
      }),
    ).toEqual({
      kind: "link-by-email",
      user: proven,
    })
  })

  it("attack (CVE-2026-53516 analogue): opt-in, verified IdP email, but the row's own email unproven → not linked", () => {
    for (const emailVerified of [null, undefined]) {
      expect(
        decide({
          userWithSameEmail: { ...alice, emailVerified },
          allowDangerousEmailAccountLinking: true,
          emailVerified: true,
        }),
      ).toEqual({ kind: "error-not-linked", reason: "email-not-verified" })
    }
  })

  it("a known account wins over an email match", () => {
    expect(
      decide({
        accountUser: alice,
        userWithSameEmail: bob,
        allowDangerousEmailAccountLinking: true,
        emailVerified: true,
      }).kind,
    ).toBe("sign-in-existing")
  })
})
