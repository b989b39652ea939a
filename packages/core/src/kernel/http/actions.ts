/** The actions served under `basePath`, and which of them take a provider id. */

export const AUTH_ACTIONS = [
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "webauthn-options",
  "account",
  "two-factor",
  "password",
  "organization",
] as const

export type AuthAction = (typeof AUTH_ACTIONS)[number]

const actionSet: ReadonlySet<string> = new Set(AUTH_ACTIONS)

/** Whether `action` names an auth endpoint (`"signin"`, `"session"`, …). */
export function isAuthAction(action: string): action is AuthAction {
  return actionSet.has(action)
}

/** Actions whose URL may carry a provider id as a second segment. */
export const ACTIONS_WITH_PROVIDER: ReadonlySet<AuthAction> = new Set([
  "signin",
  "callback",
  "webauthn-options",
  // The account change: `account/<op>`.
  "account",
  "two-factor",
  // The password account flows: `password/<op>`.
  "password",
  // The organizations feature: `organization/<op>`.
  "organization",
])
