/**
 * `GET <basePath>/webauthn-options/<provider>?action=register|authenticate[&email=]`:
 * `{ action, options }` for the browser's `navigator.credentials.create/get`, and the sealed
 * challenge cookie.
 *
 * - `authenticate`: discoverable credentials (the browser lists the user's passkeys), so an
 *   email is never needed and the answer never tells whether an email has passkeys. A signed-in
 *   user re-authenticating gets `allowCredentials` = their own credentials.
 * - `register`: for the signed-in user, or for a new user by `email` (an email that already
 *   has an account is refused: sign in first, then add a passkey).
 * - no `action` (Auth.js's choice): signed in → 400; else `register` for an email without an
 *   account, `authenticate` otherwise.
 */
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server"
import type { AdapterUser } from "../../adapters.js"
import { EmailSignInError, InvalidRequest } from "../../errors.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { currentUser } from "../actions/callback/handle-login.js"
import { addCookies, type RequestContext } from "../context.js"
import { normalizeIdentifier } from "../email/normalize-identifier.js"
import { json, type Outcome } from "../http/outcome.js"
import { type CeremonyAction, type RegisteringUser, sealChallenge } from "./challenge-cookie.js"
import { fromStoredCredentialId, toTransports } from "./credential-id.js"
import { requireWebAuthnProvider } from "./provider.js"
import { relyingParty } from "./relying-party.js"

export async function webauthnOptionsAction(ctx: RequestContext): Promise<Outcome> {
  const provider = requireWebAuthnProvider(ctx)
  const requested = parseAction(ctx.parsed.query.action)
  const signedIn = await currentUser(ctx)
  const email = parseEmail(ctx.parsed.query.email)
  const action = await chooseAction(ctx, requested, signedIn, email)

  if (action === "authenticate") {
    const options = await authenticationOptions(ctx, provider, signedIn)
    addCookies(ctx, [
      await sealChallenge(ctx, { challenge: options.challenge, provider: provider.id, action }),
    ])
    return json({ action, options })
  }

  const user: RegisteringUser = signedIn
    ? { id: signedIn.id, email: signedIn.email, name: signedIn.name ?? null }
    : { email: email! }
  const options = await registrationOptions(ctx, provider, user, signedIn)
  addCookies(ctx, [
    await sealChallenge(ctx, { challenge: options.challenge, provider: provider.id, action, user }),
  ])
  return json({ action, options })
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

async function chooseAction(
  ctx: RequestContext,
  requested: CeremonyAction | undefined,
  signedIn: AdapterUser | null,
  email: string | undefined,
): Promise<CeremonyAction> {
  if (requested === "authenticate") return requested
  if (signedIn) {
    if (requested === "register") return requested
    throw new InvalidRequest(
      "Invalid request: a signed-in user must say action=register or action=authenticate",
    )
  }
  if (requested === "register" && email === undefined) {
    throw new InvalidRequest(
      "Invalid request: registering a passkey needs an email, or sign in first",
    )
  }
  if (email === undefined) return "authenticate"
  const existing = await ctx.config.adapter!.getUserByEmail!(email)
  if (!existing) return "register"
  if (requested === undefined) return "authenticate"
  throw new InvalidRequest(
    "Invalid request: this email already has an account; sign in, then add a passkey to it",
  )
}

async function authenticationOptions(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  signedIn: AdapterUser | null,
) {
  const rp = relyingParty(provider, ctx.origin)
  const own = await ownCredentials(ctx, signedIn)
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
