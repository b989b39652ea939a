/**
 * Reading a JWT session: decrypt, `jwt` callback, `session` callback. The cookie is
 * re-encrypted only when it is due (older than `updateAge`, or `updateAge` is 0), on an update,
 * when the `jwt` callback changed the token (e.g. a rotated access token must be kept), or when
 * it was sealed with an older secret of `secret[]` (so a rotation completes as users come
 * back) — an ordinary read inside `updateAge` costs one decryption and sets no cookie.
 */

import type { CallbacksOptions } from "../config/auth-config.js"
import { defaultJwtCallback } from "../config/resolve.js"
import {
  clearSessionCookies,
  presentSessionCookieNames,
  writeSessionCookies,
} from "../cookies/session-store.js"
import { JWTSessionError } from "../errors/errors.js"
import { emitEvent } from "../events/emit.js"
import {
  absoluteClockStart,
  checkRevocation,
  pastAbsoluteEnd,
  sessionExpiry,
  touchSessionRecord,
} from "../revocation/index.js"
import { nowSeconds } from "../runtime/time.js"
import { sealedWithFirstSecret } from "../token/codec.js"
import { decode as builtInDecode, type JWT } from "../token/jwt.js"
import { decodeFirstCandidate, sessionCookieCandidates } from "../token/read-request.js"
import { isDate } from "../types/adapters.js"
import type { Session } from "../types/records.js"
import type { SessionContext, SessionResult, SessionUpdate } from "./context.js"
import { keepFeatureClaims, markSession, tokenHasError } from "./feature-hooks.js"

type JwtParams = Parameters<Required<CallbacksOptions>["jwt"]>[0]
type SessionParams = Parameters<Required<CallbacksOptions>["session"]>[0]

/** Decrypt the session cookie (whole, then chunks); `null` when none of them is a valid token. */
export async function decodeSessionCookie(
  sctx: SessionContext,
  candidates: readonly string[] = sessionCookieCandidates(
    sctx.requestCookies,
    sctx.cookies.sessionToken.name,
  ),
): Promise<JWT | null> {
  return (await findSessionToken(sctx, candidates))?.payload ?? null
}

function findSessionToken(sctx: SessionContext, candidates: readonly string[]) {
  const { jwt } = sctx.config
  return decodeFirstCandidate(candidates, jwt.decode, jwt.secret, sctx.cookies.sessionToken.name)
}

type Identity = Pick<JWT, "sid" | "auth_time" | "sv" | "amr" | "sst" | "unproven">

/**
 * Puts the session's `sid`, `auth_time`, `amr` and `sv` back on a token about to be
 * re-issued. A token from before revocation existed (or from Auth.js) gets its first `sid`
 * and starts its `absoluteMaxAge` clock now (`sst`) — but no `auth_time`: its sign-in time
 * stays unknown, so it never passes for a recent sign-in.
 */
function restoreIdentity(next: JWT, identity: Identity, now: number) {
  next.sid = typeof identity.sid === "string" ? identity.sid : crypto.randomUUID()
  if (typeof identity.auth_time === "number") {
    next.auth_time = identity.auth_time
    delete next.sst
  } else {
    delete next.auth_time
    next.sst = typeof identity.sst === "number" ? identity.sst : now
  }
  if (Array.isArray(identity.amr)) next.amr = identity.amr
  else delete next.amr
  if (typeof identity.sv === "number") next.sv = identity.sv
  else delete next.sv
  if (identity.unproven === true) next.unproven = true
  else delete next.unproven
}

/**
 * Sealed with a secret other than the newest one? Only the built-in codec can say (a custom
 * `jwt.decode` may not even use `secret`); with a single secret the answer is always no, and
 * synchronously: the common read pays no extra await.
 */
function sealedWithOlderSecret(sctx: SessionContext, token: string): false | Promise<boolean> {
  const { jwt } = sctx.config
  if (jwt.decode !== builtInDecode || !Array.isArray(jwt.secret) || jwt.secret.length < 2) {
    return false
  }
  const salt = sctx.cookies.sessionToken.name
  return sealedWithFirstSecret({ token, salt, secret: jwt.secret }).then((first) => !first)
}

/** Whether the account of a session issued unproven has proved its address since. */
async function provenSince(sctx: SessionContext, token: JWT): Promise<boolean> {
  const getUser = sctx.config.adapter?.getUser
  if (!getUser || typeof token.sub !== "string") return false
  const user = await getUser.call(sctx.config.adapter, token.sub)
  return user !== null && isDate(user.emailVerified)
}

export async function readJwtSession(
  sctx: SessionContext,
  update: SessionUpdate | undefined,
  candidates: readonly string[],
): Promise<SessionResult> {
  const { config, logger, requestCookies } = sctx
  const { name, options } = sctx.cookies.sessionToken
  // Only needed when cookies are written, which an ordinary read inside updateAge never does.
  const present = () => presentSessionCookieNames(requestCookies, name)
  const clear = () => clearSessionCookies(options, present())

  const found = await findSessionToken(sctx, candidates)
  if (!found) {
    logger.warn("session-unreadable")
    return { session: null, cookies: clear() }
  }
  const token = found.payload
  const now = nowSeconds()
  if (pastAbsoluteEnd(config, token, now)) {
    logger.event("session-revoked", "(reason: past session.absoluteMaxAge)")
    return { session: null, cookies: clear() }
  }
  const { updateAge, revocation } = config.session
  const issuedAt = token.iat
  const dueByAge =
    update !== undefined ||
    updateAge === 0 ||
    typeof issuedAt !== "number" ||
    now - issuedAt >= updateAge
  // Checked before the jwt callback, so a revoked session never reaches app code.
  let checked = false
  const refusal = async (): Promise<SessionResult | undefined> => {
    checked = true
    const check = await checkRevocation(config, token)
    if (check.outcome === "valid") return undefined
    if (check.outcome === "revoked") {
      const why =
        check.reason === "user-version" ? "signed out everywhere" : "this session signed out"
      logger.event("session-revoked", `(reason: ${why})`)
      return { session: null, cookies: clear() }
    }
    logger.error(check.error)
    // Fail closed: no session for this request, but the cookie stays for when it is back.
    return config.session.revocationFailure === "open" ? undefined : { session: null, cookies: [] }
  }
  // A session of an account nobody proved is the one a claim can take over: checked on every
  // read, so the claim ends it on the squatter's next request (docs/design/pending-grants.md).
  const claimable = token.unproven === true && revocation !== "off"
  if (revocation === "strict" || claimable || (revocation === "reissue" && dueByAge)) {
    const refused = await refusal()
    if (refused) return refused
  }
  // The session's identity is the core's, not the callback's to change or drop.
  const identity: Identity = {
    sid: token.sid,
    auth_time: token.auth_time,
    sv: token.sv,
    amr: token.amr,
    sst: token.sst,
    unproven: token.unproven,
  }
  try {
    // Without a jwt callback the token cannot change, so there is nothing to compare.
    const customJwt = config.callbacks.jwt !== defaultJwtCallback
    const before = customJwt ? JSON.stringify(token) : ""
    const returned = await config.callbacks.jwt({
      token,
      session: update?.data,
      ...(update ? { trigger: "update" } : {}),
    } as JwtParams)
    if (returned === null || returned === undefined) {
      logger.debug("jwt callback returned null: session ended")
      return { session: null, cookies: clear() }
    }
    const next = customJwt ? keepFeatureClaims(config, token, returned) : returned

    const rotated = sealedWithOlderSecret(sctx, found.token)
    const due =
      dueByAge ||
      (customJwt && JSON.stringify(next) !== before) ||
      (rotated !== false && (await rotated))

    let expiresAt: number
    let cookies: SessionResult["cookies"] = []
    if (due) {
      if (revocation === "reissue" && !checked) {
        const refused = await refusal()
        if (refused) return refused
      }
      restoreIdentity(next, identity, now)
      if (next.unproven && (await provenSince(sctx, next))) delete next.unproven
      expiresAt = sessionExpiry(config, now, absoluteClockStart(next) ?? now)
      const value = await config.jwt.encode({
        token: next,
        secret: config.jwt.secret,
        maxAge: Math.min(config.jwt.maxAge, expiresAt - now),
        salt: name,
      })
      cookies = writeSessionCookies(
        name,
        value,
        { ...options, expires: new Date(expiresAt * 1000) },
        present(),
      )
      await touchSessionRecord(config, logger, next, expiresAt)
      logger.debug("session token re-issued", { chunks: cookies.filter((c) => c.value).length })
    } else {
      expiresAt = typeof token.exp === "number" ? token.exp : sessionExpiry(config, now, now)
    }

    const session = await config.callbacks.session({
      session: {
        user: { name: next.name, email: next.email, image: next.picture },
        expires: new Date(expiresAt * 1000).toISOString(),
      },
      token: next,
      ...(update ? { trigger: "update", newSession: update.data } : {}),
    } as SessionParams)
    if (session && tokenHasError(config, next)) markSession(session as Session)
    await emitEvent(config.events, logger, "session", { session: session as Session, token: next })
    return { session: session as Session, cookies }
  } catch (cause) {
    logger.error(new JWTSessionError("The jwt or session callback failed", { cause }))
    return { session: null, cookies: clear() }
  }
}
