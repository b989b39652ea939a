/**
 * The three check cookies of an authorization request (`state`, PKCE verifier, `nonce`), sealed
 * with the token module (salt = the cookie's name, 15 minutes) and bound to the provider that
 * minted them, as in Auth.js, so cookies from a flow still in progress during an upgrade keep
 * working. On top of Auth.js, a consumed state is remembered until it expires (in the configured
 * store, so across instances), and replaying a callback with a copied cookie fails even before
 * the provider refuses the used code.
 */

import { deletionCookie } from "../../kernel/cookies/serialize.js"
import { randomBase64Url } from "../../kernel/crypto/random.js"
import { InvalidCheck, OAuthSessionMismatch } from "../../kernel/errors/errors.js"
import { defaultStore } from "../../kernel/rate-limit/memory-store.js"
import { decode, encode } from "../../kernel/token/jwt.js"
import type { CookieOption, ResponseCookie } from "../../kernel/types/cookies.js"
import type { Store } from "../../kernel/types/store.js"
import type { OAuthFlowContext } from "./context.js"

export const CHECK_MAX_AGE = 15 * 60
/** Salt of the inner state JWE (the `state` parameter). Auth.js's value: a proxy may be either. */
export const STATE_PARAM_SALT = "encodedState"

export type CheckCookie = "state" | "pkceCodeVerifier" | "nonce"

interface SealedCheck {
  value: string
  provider: string
  /** `state` only: the browser session that started the flow (`""` signed out). */
  session?: string
  jti?: string
  exp?: number
}

/** What the `state` parameter carries: a random value and, behind a redirect proxy, our callback URL. */
export interface StatePayload {
  random: string
  origin?: string
}

function cookieOptions(
  ctx: OAuthFlowContext,
  which: CheckCookie,
  crossSite: boolean,
): CookieOption["options"] {
  const options = { ...ctx.cookies[which].options, maxAge: CHECK_MAX_AGE }
  // form_post answers arrive as a cross-site POST, which only carries SameSite=None cookies.
  if (crossSite) Object.assign(options, { sameSite: "none", secure: true })
  return options
}

async function seal(
  ctx: OAuthFlowContext,
  which: CheckCookie,
  providerId: string,
  value: string,
  crossSite: boolean,
): Promise<ResponseCookie> {
  const name = ctx.cookies[which].name
  const token: SealedCheck = { value, provider: providerId }
  if (which === "state" && ctx.session !== undefined) token.session = ctx.session
  const sealed = await encode<SealedCheck>({
    token,
    secret: [...ctx.secret],
    salt: name,
    maxAge: CHECK_MAX_AGE,
  })
  return { name, value: sealed, options: cookieOptions(ctx, which, crossSite) }
}

/** A new PKCE verifier (43 characters of base64url, RFC 7636 §4.1) and its sealed cookie. */
export async function createPkce(
  ctx: OAuthFlowContext,
  providerId: string,
  crossSite: boolean,
): Promise<{ verifier: string; cookie: ResponseCookie }> {
  const verifier = randomBase64Url(32)
  return { verifier, cookie: await seal(ctx, "pkceCodeVerifier", providerId, verifier, crossSite) }
}

export async function createNonce(
  ctx: OAuthFlowContext,
  providerId: string,
  crossSite: boolean,
): Promise<{ nonce: string; cookie: ResponseCookie }> {
  const nonce = randomBase64Url(32)
  return { nonce, cookie: await seal(ctx, "nonce", providerId, nonce, crossSite) }
}

/**
 * A new `state`: the parameter is itself a sealed `{ random, origin? }` (so a redirect proxy
 * holding the same secret can read the origin), and the cookie seals the parameter.
 */
export async function createState(
  ctx: OAuthFlowContext,
  providerId: string,
  crossSite: boolean,
  origin?: string,
): Promise<{ state: string; cookie: ResponseCookie }> {
  const payload: StatePayload = { random: randomBase64Url(32) }
  if (origin !== undefined) payload.origin = origin
  const state = await encode<StatePayload>({
    token: payload,
    secret: [...ctx.secret],
    salt: STATE_PARAM_SALT,
    maxAge: CHECK_MAX_AGE,
  })
  return { state, cookie: await seal(ctx, "state", providerId, state, crossSite) }
}

/** The payload of a `state` parameter, or `null` when it is not one we (or a peer) sealed. */
export async function readStateParam(
  ctx: Pick<OAuthFlowContext, "secret">,
  state: string,
): Promise<StatePayload | null> {
  const payload = await decode<StatePayload>({
    token: state,
    secret: [...ctx.secret],
    salt: STATE_PARAM_SALT,
  })
  if (!payload || typeof payload.random !== "string") return null
  if (payload.origin !== undefined && typeof payload.origin !== "string") return null
  return payload
}

/**
 * Remember a sealed state as used until it would expire anyway, in the configured store, so
 * a replay is refused by every instance. `false`: seen before. A store that cannot answer
 * throws: the check fails closed.
 */
async function consume(
  store: Store,
  jti: string | undefined,
  exp: number | undefined,
  nowMs: number,
): Promise<boolean> {
  if (!jti) return true
  const untilMs = (exp ?? Math.floor(nowMs / 1000) + CHECK_MAX_AGE) * 1000
  return store.consumeOnce(`oauth-state:${jti}`, Math.max(1000, untilMs - nowMs))
}

async function consumeState(
  ctx: OAuthFlowContext,
  providerId: string,
  sealed: SealedCheck,
): Promise<void> {
  let fresh: boolean
  try {
    fresh = await consume(
      ctx.store ?? defaultStore(ctx.secret[0]),
      sealed.jti,
      sealed.exp,
      (ctx.now ?? Date.now)(),
    )
  } catch (cause) {
    throw new InvalidCheck("The state could not be checked against replays (store unavailable)", {
      cause,
      details: { provider: providerId, check: "state", reason: "store-unavailable" },
    })
  }
  if (!fresh) {
    throw new InvalidCheck("The state was already used", {
      details: { provider: providerId, check: "state", reason: "replayed" },
    })
  }
}

/**
 * Open a check cookie of the request: present, decryptable, unexpired, minted for this
 * provider and (for `state`) not used before. Any failure is `InvalidCheck`; the message says
 * which check, never the value.
 */
export async function openCheck(
  ctx: OAuthFlowContext,
  which: CheckCookie,
  providerId: string,
  requestCookies: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const name = ctx.cookies[which].name
  const raw = requestCookies[name]
  const label = which === "pkceCodeVerifier" ? "PKCE code verifier" : which
  if (!raw) {
    throw new InvalidCheck(`The ${label} cookie is missing`, {
      details: { provider: providerId, check: which, reason: "missing" },
    })
  }
  const sealed = await decode<SealedCheck>({ token: raw, secret: [...ctx.secret], salt: name })
  if (!sealed || typeof sealed.value !== "string") {
    throw new InvalidCheck(`The ${label} cookie is invalid or expired`, {
      details: { provider: providerId, check: which, reason: "invalid" },
    })
  }
  if (sealed.provider !== providerId) {
    throw new InvalidCheck(`The ${label} cookie was issued for another provider`, {
      details: { provider: providerId, check: which, reason: "provider-mismatch" },
    })
  }
  if (which === "state") {
    await consumeState(ctx, providerId, sealed)
    assertSameSession(ctx, providerId, sealed)
  }
  return sealed.value
}

/**
 * The callback must arrive in the browser session that started the flow: check cookies tossed
 * into another browser (a sibling subdomain can set them) would otherwise complete there, and
 * "link to the signed-in user" would hand the attacker's provider account to the victim. A
 * state sealed before this check existed counts as started signed out.
 */
function assertSameSession(ctx: OAuthFlowContext, providerId: string, sealed: SealedCheck): void {
  if (ctx.session === undefined) return
  const started = typeof sealed.session === "string" ? sealed.session : ""
  if (started === ctx.session) return
  throw new OAuthSessionMismatch(
    "The callback arrived in another browser session than the one that started the flow",
    {
      details: {
        provider: providerId,
        check: "state",
        reason:
          started === ""
            ? "started-signed-out"
            : ctx.session === ""
              ? "ended-signed-out"
              : "other-session",
      },
    },
  )
}

/**
 * Deletions for the check cookies the request carries: a callback ends the flow whatever its
 * outcome, so send these on error responses too.
 */
export function checkCookieDeletions(
  ctx: Pick<OAuthFlowContext, "cookies">,
  requestCookies: Readonly<Record<string, string | undefined>>,
): ResponseCookie[] {
  const out: ResponseCookie[] = []
  for (const which of ["state", "pkceCodeVerifier", "nonce"] as const) {
    const { name, options } = ctx.cookies[which]
    if (requestCookies[name] === undefined) continue
    // A cookie is identified by name, domain and path, so this also removes the SameSite=None
    // variant a form_post flow set.
    out.push(deletionCookie(name, options))
  }
  return out
}
