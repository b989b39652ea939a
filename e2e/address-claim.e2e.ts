/**
 * A squatted address, end to end in the demo (issue 29 part 2): an attacker registers a
 * passkey for someone else's address (a passkey sign-up proves no mailbox), then the owner
 * signs in by an email link from the dev mailbox. The link claims the account: the owner is
 * signed in, the attacker's session is over and their passkey no longer signs anyone in.
 */
import { randomUUID } from "node:crypto"
import type { Page } from "playwright-core"
import { describe, expect, inject, it } from "vitest"
import { useBrowser } from "./browser.js"
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
        { timeout: 20_000 },
      )
      .not.toBeNull()
    expect(await sessionEmail(attacker.page)).toBeNull()

    // The owner's session survives the attacker's attempt.
    expect(await sessionEmail(owner.page)).toBe(victim)
    await attacker.context.close()
    await owner.context.close()
  })
})
