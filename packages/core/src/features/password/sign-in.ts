/**
 * Password sign-in (`POST {basePath}/callback/<password provider>`, after the CSRF check and
 * the per-IP and per-account limits of credentials sign-in): find the user, verify the hash.
 *
 * A wrong password, an unknown address, a user without a password and an unproven account with
 * a wrong password all end in the same `CredentialsSignin` after exactly one hash verification
 * (unknown addresses are checked against a dummy hash made by the same hasher, and the default
 * hasher does the same work whatever kind of hash it checks, imported bcrypt included:
 * `hash.ts`), so neither the answer nor its timing tells whether an address has an account. Only the right password of an
 * unproven account gets `EmailUnverified` (code `email-unverified`): its holder already knows
 * the account exists. A hash made with older parameters, another algorithm or bcrypt (imported
 * from an Auth.js credentials setup) is replaced by a current one after a successful check, and
 * so is a hash of the password's NFC form, made before passwords were normalised to NFKC
 * (`verify.ts`).
 */

import { isEmailProven } from "../../kernel/account/email-ownership.js"
import { CredentialsSignin, EmailSignInError, EmailUnverified } from "../../kernel/errors/errors.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { normalizeIdentifier } from "../../kernel/mail/address.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import type { PasswordConfig } from "./config.js"
import type { PasswordHasher } from "./hash.js"
import { typedPassword, verifyPassword } from "./verify.js"

const dummies = new WeakMap<PasswordHasher, Promise<string>>()

/** A hash of a password nobody has, made once per hasher: what unknown addresses are checked against. */
export function dummyHash(hasher: PasswordHasher): Promise<string> {
  let hash = dummies.get(hasher)
  if (!hash) {
    hash = hasher.hash(`latchkey dummy ${crypto.randomUUID()}`)
    hash.catch(() => dummies.delete(hasher))
    dummies.set(hasher, hash)
  }
  return hash
}

function refused(reason: string, provider: string): CredentialsSignin {
  return new CredentialsSignin("Wrong email or password", { details: { provider, reason } })
}

/** The address as users are keyed by, or `null` when it is not a usable address. */
export function passwordIdentifier(value: unknown): string | null {
  try {
    return normalizeIdentifier(value)
  } catch (error) {
    if (error instanceof EmailSignInError) return null
    throw error
  }
}

/** The signed-in user, or `CredentialsSignin` / `EmailUnverified`. */
export async function authorizePassword(
  ctx: RequestContext,
  provider: PasswordConfig,
  credentials: Record<string, unknown>,
): Promise<AdapterUser> {
  const settings = provider.passwordAccount
  const adapter = ctx.config.adapter!
  // Over the size bound: refused before any lookup or hash (no account can have it).
  const typed = typedPassword(credentials.password, settings.policy.maxBytes)
  if (typed === null || typed.password === "") throw refused("malformed-password", provider.id)
  const email = passwordIdentifier(credentials.email)

  const user = email === null ? null : await adapter.getUserByEmail!(email)
  const stored = user ? await adapter.getPasswordHash!(user.id) : null
  const hash = stored ?? (await dummyHash(settings.hasher))
  const matches = await verifyPassword(settings.hasher, hash, typed)
  if (!user || stored === null || !matches) {
    throw refused(
      !user ? "unknown" : stored === null ? "no-password" : "wrong-password",
      provider.id,
    )
  }
  if (settings.requireEmailVerification && !isEmailProven(user)) {
    throw new EmailUnverified("The address of this account is not confirmed yet", {
      details: { provider: provider.id, reason: "email-unverified" },
    })
  }
  // A hash of the pre-NFKC form, or one made with other parameters: replaced by a current one.
  if (matches === "legacy" || (await settings.hasher.needsRehash(stored))) {
    await adapter.setPasswordHash!(user.id, await settings.hasher.hash(typed.password))
    ctx.logger.debug("password hash upgraded", { provider: provider.id })
  }
  return user
}
