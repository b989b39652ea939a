/**
 * `GET <basePath>/webauthn-options/<provider>?action=register|authenticate[&email=]`:
 * `{ action, options }` for the browser's `navigator.credentials.create/get`, and the sealed
 * challenge cookie.
 *
 * - `authenticate`: discoverable credentials (the browser lists the user's passkeys), so an
 *   email is never needed and the answer never tells whether an email has passkeys. A signed-in
 *   user re-authenticating gets `allowCredentials` = their own credentials.
 * - `register`: for the signed-in user, or for a new user by `email`. Whether the address
 *   already has an account is decided by the callback, after a real ceremony (it refuses to
 *   join an existing account: `kernel/account/email-ownership.ts`). Signed in, adding a passkey
 *   is an account change: it needs a recent sign-in, with the second factor when two-factor is
 *   on (`ReauthenticationRequired`, 403), and counts against the user's limit of changes
 *   (`kernel/config/account-change-limit.ts`).
 * - no `action` (Auth.js's name for "let the server choose"): signed in → 400; else `register`
 *   when an email is given, `authenticate` without one. Unlike Auth.js, the choice never
 *   depends on whether the email has an account: the answer has the same status and shape
 *   for known and unknown addresses, so the endpoint cannot be used to enumerate them.
 *
 * Every request counts against per-IP and per-address limits in the configured store
 * (`features/passkey/options-limits.ts`); over a limit the answer is a 429.
 */

import { currentSessionOf } from "../../kernel/account/current-session.js"
import { assertStepUp } from "../../kernel/account/step-up.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import { EmailSignInError, InvalidRequest, RateLimited } from "../../kernel/errors/errors.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import { json, type Outcome } from "../../kernel/http/outcome.js"
import { errorBody } from "../../kernel/http/public-error.js"
import { normalizeIdentifier } from "../../kernel/mail/address.js"
import { signedInUser } from "../../kernel/sign-in/handle-login.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import { type CeremonyAction, type RegisteringUser, sealChallenge } from "./challenge-cookie.js"
import { fromStoredCredentialId, toTransports } from "./credential-id.js"
import { enforcePasskeyOptionsLimits } from "./options-limits.js"
import { passkeyLimitMessage, requireWebAuthnProvider } from "./provider.js"
import type { WebAuthnConfig } from "./provider-config.js"
import { relyingParty } from "./relying-party.js"
import { simpleWebAuthn } from "./simplewebauthn.js"

export async function webauthnOptionsAction(ctx: RequestContext): Promise<Outcome> {
  const provider = requireWebAuthnProvider(ctx)
  const requested = parseAction(ctx.parsed.query.action)
  const signedIn = await signedInUser(ctx)
  const email = parseEmail(ctx.parsed.query.email)
  const limited = await rateLimited(ctx, provider, email)
  if (limited) return limited
  const action = chooseAction(requested, signedIn, email)
  // The session was read: a re-issue (or the deletion of an ended one) reaches the browser.
  addCookies(ctx, (await currentSessionOf(ctx)).cookies)

  if (action === "authenticate") {
    const options = await authenticationOptions(ctx, provider, signedIn)
    addCookies(ctx, [
      await sealChallenge(ctx, { challenge: options.challenge, provider: provider.id, action }),
    ])
    return json({ action, options })
  }

  if (signedIn) await mayAddPasskey(ctx)
  const user: RegisteringUser = signedIn
    ? { id: signedIn.id, email: signedIn.email, name: signedIn.name ?? null }
    : { email: email! }
  const options = await registrationOptions(ctx, provider, user, signedIn)
  addCookies(ctx, [
    await sealChallenge(ctx, { challenge: options.challenge, provider: provider.id, action, user }),
  ])
  return json({ action, options })
}

/** A signed-in user adding a passkey: the step-up rule, then one change counted. */
async function mayAddPasskey(ctx: RequestContext): Promise<void> {
  const current = await currentSessionOf(ctx)
  if (!current.signedIn) return
  await assertStepUp(ctx.config, current)
  await countAccountChange(ctx, current.userId)
}

function parseAction(value: string | undefined): CeremonyAction | undefined {
  if (value === undefined || value === "") return undefined
  if (value === "register" || value === "authenticate") return value
  throw new InvalidRequest("Invalid action: use action=register or action=authenticate")
}

function parseEmail(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined
  try {
    return normalizeIdentifier(value)
  } catch (error) {
    if (error instanceof EmailSignInError) throw new InvalidRequest(error.message)
    throw error
  }
}

function chooseAction(
  requested: CeremonyAction | undefined,
  signedIn: AdapterUser | null,
  email: string | undefined,
): CeremonyAction {
  if (requested === "authenticate") return requested
  if (signedIn) {
    if (requested === "register") return requested
    throw new InvalidRequest(
      "Invalid request: a signed-in user must say action=register or action=authenticate",
    )
  }
  if (email !== undefined) return "register"
  if (requested === "register") {
    throw new InvalidRequest(
      "Invalid request: registering a passkey needs an email, or sign in first",
    )
  }
  return "authenticate"
}

/** The 429 answer when this request is over a limit, else `undefined` (the request counted). */
async function rateLimited(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  email: string | undefined,
): Promise<Outcome | undefined> {
  try {
    await enforcePasskeyOptionsLimits(ctx, provider.id, provider.rateLimit, email)
    return undefined
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error
    ctx.logger.error(error)
    const retry = error.details?.retryAfterSeconds
    return json(errorBody(error), 429, { "Retry-After": String(retry ?? 60) })
  }
}

async function authenticationOptions(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  signedIn: AdapterUser | null,
) {
  const rp = relyingParty(provider, ctx.origin)
  const own = await ownCredentials(ctx, signedIn)
  const { generateAuthenticationOptions } = await simpleWebAuthn()
  return generateAuthenticationOptions({
    timeout: provider.timeout,
    userVerification: provider.userVerification,
    ...provider.authenticationOptions,
    rpID: rp.id,
    ...(own.length > 0 ? { allowCredentials: own } : {}),
  })
}

async function registrationOptions(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  user: RegisteringUser,
  signedIn: AdapterUser | null,
) {
  const rp = relyingParty(provider, ctx.origin)
  const own = await ownCredentials(ctx, signedIn)
  if (own.length >= provider.maxPasskeysPerUser) {
    throw new InvalidRequest(passkeyLimitMessage(provider))
  }
  const { generateRegistrationOptions } = await simpleWebAuthn()
  return generateRegistrationOptions({
    timeout: provider.timeout,
    attestationType: "none",
    ...provider.registrationOptions,
    authenticatorSelection: {
      residentKey: "required",
      userVerification: provider.userVerification,
      ...provider.registrationOptions?.authenticatorSelection,
    },
    rpID: rp.id,
    rpName: rp.name,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    // The same authenticator twice for one user is refused by the browser up front.
    excludeCredentials: own,
  })
}

/** The signed-in user's credentials as option descriptors (none when signed out). */
async function ownCredentials(ctx: RequestContext, signedIn: AdapterUser | null) {
  if (!signedIn) return []
  const own = await ctx.config.adapter!.listAuthenticatorsByUserId!(signedIn.id)
  return own.map((a) => ({
    id: fromStoredCredentialId(a.credentialID),
    transports: toTransports(a.transports),
  }))
}
