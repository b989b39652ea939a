/**
 * `POST <basePath>/callback/<webauthn provider>` with `action` (`register` | `authenticate`) and
 * `data` (the browser's credential as JSON, a string or an object): CSRF, the challenge cookie
 * (opened and consumed), verification by `@simplewebauthn/server`, then the common sign-in
 * path. Nothing is written before the response verified; the authenticator row (or its new
 * counter) is written once the user is resolved, so a refused link stores nothing either.
 */
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server"
import { currentSessionOf } from "../../kernel/account/current-session.js"
import { assertStepUp } from "../../kernel/account/step-up.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import {
  InvalidRequest,
  MethodNotAllowed,
  WebAuthnVerificationError,
} from "../../kernel/errors/errors.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import type { Outcome } from "../../kernel/http/outcome.js"
import { completeSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import { signedInUser } from "../../kernel/sign-in/handle-login.js"
import type { Adapter, AdapterUser } from "../../kernel/types/adapters.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import type { Account } from "../../kernel/types/records.js"
import {
  type CeremonyAction,
  challengeDeletion,
  openChallenge,
  type SealedChallenge,
} from "./challenge-cookie.js"
import {
  publicKeyFromStored,
  publicKeyToStored,
  toStoredCredentialId,
  toTransports,
  transportsToStored,
} from "./credential-id.js"
import { passkeyLimitMessage, requireWebAuthnProvider } from "./provider.js"
import type { WebAuthnConfig } from "./provider-config.js"
import { type RelyingParty, relyingParty } from "./relying-party.js"
import { simpleWebAuthn } from "./simplewebauthn.js"

interface Ceremony {
  ctx: RequestContext
  provider: WebAuthnConfig
  adapter: Adapter
  rp: RelyingParty
  sealed: SealedChallenge
  callbackUrl: string
}

export async function webauthnCallback(
  ctx: RequestContext,
  _provider: ProviderConfig,
): Promise<Outcome> {
  if (ctx.parsed.method !== "POST") {
    throw new MethodNotAllowed("Passkey sign-in takes a POST to this URL", {
      details: { allow: "POST" },
    })
  }
  const provider = requireWebAuthnProvider(ctx)
  await requireCsrf(ctx)
  // The ceremony ends with this request, whatever its outcome.
  addCookies(ctx, [challengeDeletion(ctx)])
  const action = parseAction(ctx.parsed.body.action)
  const data = parseCredential(ctx.parsed.body.data)
  const callbackUrl = await resolveCallbackUrl(ctx)
  const sealed = await openChallenge(ctx, provider.id, action)
  const ceremony: Ceremony = {
    ctx,
    provider,
    adapter: ctx.config.adapter!,
    rp: relyingParty(provider, ctx.origin),
    sealed,
    callbackUrl,
  }
  return action === "authenticate"
    ? authenticate(ceremony, data as unknown as AuthenticationResponseJSON)
    : register(ceremony, data as unknown as RegistrationResponseJSON)
}

function parseAction(value: unknown): CeremonyAction {
  if (value === "register" || value === "authenticate") return value
  throw new InvalidRequest("Invalid action: post action=register or action=authenticate with data")
}

/** `data`: the credential JSON (a string from forms, an object from JSON bodies). */
function parseCredential(value: unknown): Record<string, unknown> {
  let parsed = value
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new InvalidRequest("Invalid request: data is not valid JSON")
    }
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    typeof (parsed as { id?: unknown }).id !== "string" ||
    typeof (parsed as { response?: unknown }).response !== "object" ||
    (parsed as { response?: unknown }).response === null
  ) {
    throw new InvalidRequest("Invalid request: data must be the credential's JSON (id, response)")
  }
  return parsed as Record<string, unknown>
}

function refuse(ceremony: Ceremony, message: string, reason: string): WebAuthnVerificationError {
  return new WebAuthnVerificationError(message, {
    details: { provider: ceremony.provider.id, reason },
  })
}

/**
 * A failure inside `@simplewebauthn/server` (bad signature, wrong origin or rpID, tampered
 * client data, counter gone backwards, …). Its message is kept for the log with quoted values
 * elided: they can include the challenge.
 */
function verificationFailed(ceremony: Ceremony, error: unknown): WebAuthnVerificationError {
  const said = error instanceof Error ? error.message.replace(/"[^"]*"/g, '"…"') : "unknown"
  return refuse(ceremony, `The passkey response did not verify: ${said.slice(0, 200)}`, "verify")
}

/** What every response must match: this ceremony's challenge, our origins and rpIDs, UV policy. */
function expectations({ sealed, rp, provider }: Ceremony) {
  return {
    expectedChallenge: sealed.challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.ids,
    requireUserVerification: provider.userVerification === "required",
  }
}

async function authenticate(
  ceremony: Ceremony,
  response: AuthenticationResponseJSON,
): Promise<Outcome> {
  const { ctx, provider, adapter } = ceremony
  const credentialID = toStoredCredentialId(response.id)
  if (credentialID === null)
    throw refuse(ceremony, "The credential id is malformed", "malformed-id")
  const authenticator = await adapter.getAuthenticator!(credentialID)
  if (!authenticator) {
    throw refuse(ceremony, "This passkey is not registered with this site", "unknown-credential")
  }
  let newCounter: number
  let userVerified: boolean
  try {
    const { verifyAuthenticationResponse } = await simpleWebAuthn()
    const verification = await verifyAuthenticationResponse({
      response,
      ...expectations(ceremony),
      credential: {
        id: response.id,
        publicKey: publicKeyFromStored(authenticator.credentialPublicKey),
        counter: authenticator.counter,
        transports: toTransports(authenticator.transports),
      },
    })
    if (!verification.verified) throw new Error("signature")
    newCounter = verification.authenticationInfo.newCounter
    userVerified = verification.authenticationInfo.userVerified === true
  } catch (error) {
    throw verificationFailed(ceremony, error)
  }
  const account = await adapter.getAccount!(credentialID, provider.id)
  const user = account ? await adapter.getUser!(account.userId) : null
  if (!account || !user || account.userId !== authenticator.userId) {
    throw refuse(ceremony, "This passkey belongs to no account of this site", "no-account")
  }
  return completeSignIn(ctx, provider, {
    user,
    account: webauthnAccount(provider, credentialID),
    callbackUrl: ceremony.callbackUrl,
    amr: passkeyAmr(userVerified),
    afterLogin: async () => {
      await adapter.updateAuthenticatorCounter!(credentialID, newCounter)
    },
  })
}

async function register(ceremony: Ceremony, response: RegistrationResponseJSON): Promise<Outcome> {
  const { ctx, provider, adapter, sealed } = ceremony
  const registering = sealed.user
  if (!registering || typeof registering.email !== "string") {
    throw refuse(ceremony, "The registration challenge names no user", "no-user")
  }
  // Options minted for one session (or for a signed-out visitor) register for that one only;
  // a session ended since (or one past absoluteMaxAge) is nobody's.
  const signedIn = await signedInUser(ctx)
  if ((registering.id ?? null) !== (signedIn?.id ?? null)) {
    throw refuse(ceremony, "The registration was started by another session", "user-mismatch")
  }
  // Still recent (with the second factor when it is on): the options may be minutes old.
  const current = await currentSessionOf(ctx)
  if (current.signedIn) await assertStepUp(ctx.config, current)
  let info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"]>
  try {
    const { verifyRegistrationResponse } = await simpleWebAuthn()
    const verification = await verifyRegistrationResponse({ response, ...expectations(ceremony) })
    if (!verification.verified) throw new Error("attestation")
    info = verification.registrationInfo
  } catch (error) {
    throw verificationFailed(ceremony, error)
  }
  const credentialID = toStoredCredentialId(info.credential.id)
  if (credentialID === null)
    throw refuse(ceremony, "The credential id is malformed", "malformed-id")
  if (await adapter.getAuthenticator!(credentialID)) {
    throw refuse(ceremony, "This passkey is already registered", "duplicate")
  }
  // Again here: the options may have been fetched several times before any was used.
  if (signedIn) {
    const held = await adapter.listAuthenticatorsByUserId!(signedIn.id)
    if (held.length >= provider.maxPasskeysPerUser) {
      throw refuse(ceremony, passkeyLimitMessage(provider), "passkey-limit")
    }
  }
  const user: AdapterUser = signedIn ?? {
    id: crypto.randomUUID(),
    email: registering.email,
    name: registering.name ?? null,
    emailVerified: null,
  }
  return completeSignIn(ctx, provider, {
    user,
    account: webauthnAccount(provider, credentialID),
    callbackUrl: ceremony.callbackUrl,
    amr: passkeyAmr(info.userVerified === true),
    afterLogin: async (owner) => {
      await adapter.createAuthenticator!({
        credentialID,
        userId: owner.id!,
        providerAccountId: credentialID,
        counter: info.credential.counter,
        credentialBackedUp: info.credentialBackedUp,
        credentialDeviceType: info.credentialDeviceType,
        credentialPublicKey: publicKeyToStored(info.credential.publicKey),
        transports: transportsToStored(info.credential.transports),
      })
    },
  })
}

/** The account row of a passkey, as Auth.js writes it. */
function webauthnAccount(provider: WebAuthnConfig, credentialID: string): Account {
  return { provider: provider.id, type: "webauthn", providerAccountId: credentialID }
}

/**
 * A passkey is something the user has (`hwk`); with user verification (PIN or biometric) also
 * something they know or are (`user`), which makes it multi-factor on its own (`mfa`).
 */
function passkeyAmr(userVerified: boolean): string[] {
  return userVerified ? ["hwk", "user", "mfa"] : ["hwk"]
}
