/**
 * A squatted address, end to end in the demo (issue 29 part 2): an attacker registers a
 * passkey for someone else's address (a passkey sign-up proves no mailbox), then the owner
 * signs in by an email link from the dev mailbox. The link claims the account: the owner is
 * signed in, the attacker's session is over and their passkey no longer signs anyone in.
 * And what the squatter left pending dies with the claim (issue 41): an address change they
 * asked for, and the password they chose when they signed up with the owner's address.
 */
import { randomUUID } from "node:crypto"
import type { Page } from "playwright-core"
import { describe, expect, inject, it } from "vitest"
import { clickAndLoad, useBrowser } from "./browser.js"
import {
  confirmLink,
  devMailbox,
  resetPassword,
  SUBJECTS,
  signInWithPassword,
  signUp,
} from "./password-flows.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

// `localhost`: an IP address cannot be a WebAuthn relying-party id (as passkey-demo.e2e.ts).
const baseURL = inject("baseURL").replace("//127.0.0.1:", "//localhost:")
const openPage = useBrowser(baseURL)

/**
 * A passkey sign-up for `email` from a signed-out page, as any script can make one: the
 * registration options for the address, the browser's WebAuthn ceremony (the virtual
 * authenticator), the credential posted to the passkey callback.
 */
async function passkeySignUp(page: Page, email: string): Promise<string> {
  return page.evaluate(async (address) => {
    const fromB64 = (s: string) =>
      Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))
    const toB64 = (b: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(b)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "")
    const query = new URLSearchParams({ action: "register", email: address })
    const answer = await fetch(`/auth/webauthn-options/passkey?${query}`)
    const { options } = await answer.json()
    const credential = (await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: fromB64(options.challenge),
        user: { ...options.user, id: fromB64(options.user.id) },
        excludeCredentials: (options.excludeCredentials ?? []).map(
          (c: { id: string; type: "public-key" }) => ({ ...c, id: fromB64(c.id) }),
        ),
      },
    })) as PublicKeyCredential
    const response = credential.response as AuthenticatorAttestationResponse
    const data = {
      id: credential.id,
      rawId: toB64(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: toB64(response.clientDataJSON),
        attestationObject: toB64(response.attestationObject),
        transports: response.getTransports(),
      },
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment,
    }
    const done = await fetch("/auth/callback/passkey", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-auth-return-redirect": "1",
      },
      body: new URLSearchParams({ action: "register", data: JSON.stringify(data) }),
    })
    return ((await done.json()) as { url: string }).url
  }, email)
}

async function sessionEmail(page: Page): Promise<string | null> {
  const answer = await page.request.get("/auth/session")
  const session = (await answer.json()) as { user?: { email?: string } } | null
  return session?.user?.email ?? null
}

describe("demo: a squatted address", () => {
  it("attacker registers a passkey for the address, owner signs in by email link, the attacker's passkey is refused", async () => {
    const victim = `claim-${randomUUID()}@example.net`

    // The attacker: a passkey sign-up for the victim's address, and a session in that account.
    const attacker = await openPage()
    await addVirtualAuthenticator(attacker.page)
    await attacker.page.goto("/signin/")
    const landed = await passkeySignUp(attacker.page, victim)
    expect(new URL(landed).searchParams.get("error")).toBeNull()
    expect(await sessionEmail(attacker.page)).toBe(victim)

    // The owner: an email link for their address, from the dev mailbox, confirmed.
    const owner = await openPage()
    await owner.page.goto("/signin/")
    await owner.page.fill('[data-testid="email-link-address"]', victim)
    await Promise.all([
      owner.page.waitForURL((url) => url.pathname === "/verify-request/"),
      owner.page.click('[data-testid="email-link-submit"]'),
    ])
    await owner.page.goto("/dev/mailbox/")
    const link = await owner.page.getAttribute(
      `[data-testid="mail"][data-to="${victim}"] [data-testid="mail-link"]`,
      "href",
    )
    await owner.page.goto(link!)
    await Promise.all([
      owner.page.waitForURL((url) => url.pathname === "/"),
      owner.page.click('button[type="submit"]'),
    ])
    // Signed in: before the claim, this page said the address was never confirmed.
    await expect(owner.page.textContent('[data-testid="session-email"]')).resolves.toBe(victim)

    // The attacker's session is over, and their passkey no longer signs anyone in.
    expect(await sessionEmail(attacker.page)).toBeNull()
    await attacker.page.goto("/signin/")
    await press(attacker.page, '[data-testid="passkey-signin"]')
    // Refused: the page shows the passkey error, or the browser lands on an error page.
    await expect
      .poll(
        async () =>
          new URL(attacker.page.url()).searchParams.get("error") ??
          ((await attacker.page.locator('[data-testid="passkey-error"]').count()) > 0
            ? "shown"
            : null),
      )
      .not.toBeNull()
    expect(await sessionEmail(attacker.page)).toBeNull()

    // The owner's session survives the attacker's attempt.
    expect(await sessionEmail(owner.page)).toBe(victim)
    await attacker.context.close()
    await owner.context.close()
  })

  it("a squatter's pending address change dies with the owner's claim (issue 41, item 1)", async () => {
    const victim = `claim-change-${randomUUID()}@example.net`
    const mallory = `mallory-${randomUUID()}@evil.example`

    // The squatter: a passkey sign-up for the address, then a change of address to their own
    // (no password on the row, so none is asked for).
    const attacker = await openPage()
    await addVirtualAuthenticator(attacker.page)
    await attacker.page.goto("/signin/")
    await passkeySignUp(attacker.page, victim)
    await attacker.page.goto("/account/")
    await attacker.page.fill('[data-testid="email-address"] input[name="email"]', mallory)
    await clickAndLoad(attacker.page, '[data-testid="email-change"]')
    await attacker.page.waitForSelector('[data-testid="email-change-done"]')
    const change = await devMailbox(attacker.page).next(mallory, SUBJECTS.emailChange)

    // The owner signs up for their address: the "account exists" mail's reset link claims it.
    const owner = await openPage()
    const password = "the owner's own passphrase"
    await signUp(owner.page, { email: victim, password })
    const exists = await devMailbox(owner.page).next(victim, SUBJECTS.accountExists)
    await resetPassword(owner.page, exists.link!, password)
    expect(await sessionEmail(owner.page)).toBe(victim)

    // The squatter's link no longer moves the account: refused, and the address stays.
    const landed = await confirmLink(attacker.page, change.link!)
    expect(landed.pathname).toBe("/auth/error")
    expect(landed.searchParams.get("error")).toBe("Verification")
    expect(await sessionEmail(owner.page)).toBe(victim)
    await owner.page.goto("/account/")
    await expect(owner.page.textContent('[data-testid="account-email"]')).resolves.toBe(victim)
    await attacker.context.close()
    await owner.context.close()
  })

  it("a sign-up confirmed from another browser keeps nothing of the signer-up (issue 41, item 4)", async () => {
    const victim = `claim-signup-${randomUUID()}@example.net`
    const chosenByAttacker = "the attacker's passphrase"
    const chosenByOwner = "the owner's own passphrase"

    const attacker = await openPage()
    await signUp(attacker.page, { email: victim, password: chosenByAttacker })

    // The owner opens the confirmation mail in their own browser: the page asks for a password.
    const owner = await openPage()
    const mail = await devMailbox(owner.page).next(victim, SUBJECTS.verify)
    await owner.page.goto(mail.link!)
    await owner.page.fill('input[name="password"]', chosenByOwner)
    await Promise.all([
      owner.page.waitForURL((url) => url.pathname === "/"),
      owner.page.click('button[type="submit"]'),
    ])
    expect(await sessionEmail(owner.page)).toBe(victim)

    // The attacker's password signs nobody in; the owner's does.
    const refused = await signInWithPassword(attacker.page, {
      email: victim,
      password: chosenByAttacker,
    })
    expect(refused.searchParams.get("error")).toBe("CredentialsSignin")
    expect(await sessionEmail(attacker.page)).toBeNull()
    const other = await openPage()
    await signInWithPassword(other.page, { email: victim, password: chosenByOwner })
    expect(await sessionEmail(other.page)).toBe(victim)
    await Promise.all([attacker.context.close(), owner.context.close(), other.context.close()])
  })
})
