/**
 * oauth4webapi failures turned into Latchkey errors. Only codes and oauth4webapi's fixed
 * messages are kept: its `cause` objects hold response bodies, ID-token claims and expected
 * check values, so they are never attached (the logger prints `cause`).
 */
import * as o from "oauth4webapi"
import { AuthError, InvalidCheck, OAuthCallbackError } from "../../../kernel/errors/errors.js"

export type CallbackStep = "authorization" | "token" | "id_token" | "userinfo" | "discovery"

/** A provider-sent code (`access_denied`, `invalid_grant`) if it looks like one, else `undefined`. */
export function safeCode(value: unknown): string | undefined {
  return typeof value === "string" && /^[\w.-]{1,64}$/.test(value) ? value : undefined
}

export function toCallbackError(error: unknown, providerId: string, step: CallbackStep): AuthError {
  if (error instanceof AuthError) return error
  const details: Record<string, unknown> = { provider: providerId, step }
  if (error instanceof o.AuthorizationResponseError) {
    details.error = safeCode(error.error)
    return new OAuthCallbackError(
      `Provider "${providerId}" answered the authorization request with an error`,
      { details },
    )
  }
  if (error instanceof o.ResponseBodyError) {
    details.error = safeCode(error.error)
    details.status = error.status
    return new OAuthCallbackError(
      `Provider "${providerId}": the ${step} endpoint returned an error`,
      {
        details,
      },
    )
  }
  if (error instanceof o.OperationProcessingError) {
    details.code = error.code
    details.reason = error.message
    const cause = error.cause as { claim?: unknown } | undefined
    // A nonce that does not match ours is a failed check, like a bad state.
    if (error.code === o.JWT_CLAIM_COMPARISON && cause?.claim === "nonce") {
      return new InvalidCheck("The ID token's nonce does not match", {
        details: { ...details, check: "nonce", reason: "mismatch" },
      })
    }
    return new OAuthCallbackError(`Provider "${providerId}": the ${step} response is invalid`, {
      details,
    })
  }
  if (error instanceof o.UnsupportedOperationError) {
    details.reason = error.message
    return new OAuthCallbackError(`Provider "${providerId}": unsupported ${step} response`, {
      details,
    })
  }
  // Network failures, TypeErrors from fetch: keep the class name only.
  details.reason = error instanceof Error ? error.name : typeof error
  return new OAuthCallbackError(`Provider "${providerId}": the ${step} request failed`, { details })
}
