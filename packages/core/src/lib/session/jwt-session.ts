/**
 * Reading a JWT session: decrypt, `jwt` callback, `session` callback. The cookie is
 * re-encrypted only when it is due (older than `updateAge`, or `updateAge` is 0), on an update,
 * when the `jwt` callback changed the token (e.g. a rotated access token must be kept), or when
 * it was sealed with an older secret of `secret[]` (so a rotation completes as users come
 * back) — an ordinary read inside `updateAge` costs one decryption and sets no cookie.
 */

import { JWTSessionError } from "../../errors.js"
import { decode as builtInDecode, type JWT } from "../../jwt.js"
import type { CallbacksOptions, Session } from "../../types.js"
import { defaultJwtCallback } from "../config/resolve.js"
import {
  clearSessionCookies,
  presentSessionCookieNames,
  writeSessionCookies,
} from "../cookies/session-store.js"
import { emitEvent } from "../events.js"
import { keepProviderTokens, markSession, tokenHasRefreshError } from "../refresh/session-error.js"
import { nowSeconds } from "../time.js"
import { sealedWithFirstSecret } from "../token/codec.js"
import { decodeFirstCandidate, sessionCookieCandidates } from "../token/read-request.js"
import type { SessionContext, SessionResult, SessionUpdate } from "./context.js"

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
  try {
    // Without a jwt callback the token cannot change, so there is nothing to compare.
    const customJwt = config.callbacks.jwt !== defaultJwtCallback
    const before = customJwt ? JSON.stringify(token) : ""
    const issuedAt = token.iat
    const returned = await config.callbacks.jwt({
      token,
      session: update?.data,
      ...(update ? { trigger: "update" } : {}),
    } as JwtParams)
    if (returned === null || returned === undefined) {
      logger.debug("jwt callback returned null: session ended")
      return { session: null, cookies: clear() }
    }
    const next = customJwt ? keepProviderTokens(token, returned) : returned

    const now = nowSeconds()
    const { updateAge, maxAge } = config.session
    const rotated = sealedWithOlderSecret(sctx, found.token)
    const due =
      update !== undefined ||
      updateAge === 0 ||
      typeof issuedAt !== "number" ||
      now - issuedAt >= updateAge ||
      (customJwt && JSON.stringify(next) !== before) ||
      (rotated !== false && (await rotated))

    let expiresAt: number
    let cookies: SessionResult["cookies"] = []
    if (due) {
      expiresAt = now + maxAge
      const value = await config.jwt.encode({
        token: next,
        secret: config.jwt.secret,
        maxAge: config.jwt.maxAge,
        salt: name,
      })
      cookies = writeSessionCookies(
        name,
        value,
        { ...options, expires: new Date(expiresAt * 1000) },
        present(),
      )
      logger.debug("session token re-issued", { chunks: cookies.filter((c) => c.value).length })
    } else {
      expiresAt = typeof token.exp === "number" ? token.exp : now + maxAge
    }

    const session = await config.callbacks.session({
      session: {
        user: { name: next.name, email: next.email, image: next.picture },
        expires: new Date(expiresAt * 1000).toISOString(),
      },
      token: next,
      ...(update ? { trigger: "update", newSession: update.data } : {}),
    } as SessionParams)
    if (session && tokenHasRefreshError(next)) markSession(session as Session)
    await emitEvent(config.events, logger, "session", { session: session as Session, token: next })
    return { session: session as Session, cookies }
  } catch (cause) {
    logger.error(new JWTSessionError("The jwt or session callback failed", { cause }))
    return { session: null, cookies: clear() }
  }
}
