/**
 * What each log code means and what to do about it: the sentence every coded line carries.
 * The log-codes page's list of codes is checked against this table by a test.
 */
/**
 * Codes of what needs an operator's eye: a misconfiguration, or a failure that a security log
 * must keep (a refused password, a failed OAuth check, an account claimed). Passed to
 * `logger.warn`. Stable: match on them. Each is logged once per process per distinct detail
 * (later repeats go to `debug`); the second argument is a sentence saying what happened and
 * what to do. The texts are in `WARNING_TEXT` below; the docs list them all.
 */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "experimental-webauthn"
  | "session-unreadable"
  | "secret-weak"
  | "env-url-basepath-redundant"
  /** A provider lacks what it needs to sign anyone in (the detail names the setting). */
  | "provider-unusable"
  /** An OAuth state, PKCE or nonce check failed (the detail names the check). */
  | "check-failed"
  /** A credentials sign-in was refused (the detail names the provider and the code). */
  | "credentials-refused"
  /** A second-factor code (or recovery code) was refused (the detail names the reason). */
  | "two-factor-refused"
  /** A request came to another origin than `AUTH_URL`'s (the detail names both). */
  | "host-mismatch"
  /** The adapter lacks optional account API methods (the detail names them). */
  | "account-api-unsupported"
  /** A proof of an address claimed a row nobody had proved (the detail says what was removed). */
  | "account-claimed"
  /** A claim could not end the row's JWT sessions (`session.revocation: "off"`). */
  | "claim-sessions-not-ended"
  /** The adapter lacks methods a claim needs (the detail names them). */
  | "claim-needs-methods"
  /** Single-use markers, limits and revocation hold per isolate (the detail names which). */
  | "store-per-isolate"
  /** `rateLimit.getClientIp` returned something that is not an IP address: not counted per IP. */
  | "client-ip-unreadable"

/**
 * Codes of user events: what a user did or met in the ordinary course (signed out, asked to
 * sign in again, a weak new password), not a fault. Logged at `debug` (Auth.js's logger has no
 * info level), never as a warning: a busy app would print them on every visit.
 */
export type UserEventCode =
  /** A revoked or over-age session was refused (the detail names why). */
  | "session-revoked"
  /** A change needed a recent sign-in (with the second factor) the session lacks. */
  | "reauthentication-required"
  /** An account API change was refused (the detail names the error and the change). */
  | "account-refused"
  /** A password action other than a sign-in was refused (the detail names the error). */
  | "password-refused"

/** Every code a log line carries. */
export type LogCode = WarningCode | UserEventCode

const USER_EVENTS: ReadonlySet<LogCode> = new Set<UserEventCode>([
  "session-revoked",
  "reauthentication-required",
  "account-refused",
  "password-refused",
])

/** Whether `code` is a user event (logged at `debug`), not a warning. */
export function isUserEvent(code: LogCode): code is UserEventCode {
  return USER_EVENTS.has(code)
}

/** Sentences by code: the kernel's (`WARNING_TEXT`), and each feature's own (`Feature.logTexts`). */
export type LogTexts = Readonly<Partial<Record<LogCode, string>>>

/**
 * The sentences of the codes the kernel logs. A code only one feature's code logs has its
 * sentence in that feature (`logTexts`), so an app carries only the sentences it can print; the
 * logger of a configuration reads both.
 */
export const WARNING_TEXT: LogTexts = Object.freeze({
  "debug-enabled":
    "`debug: true` logs every auth request step. Remove `debug: true` before going to production.",
  "csrf-disabled":
    "`skipCSRFCheck` is set, so Latchkey checks no CSRF token: only use it behind a framework that checks its own.",
  "experimental-webauthn":
    "Passkeys (experimental.enableWebAuthn) are experimental: their options and storage may change in a minor release.",
  "session-unreadable":
    "A session cookie could not be used (expired, damaged, or signed with a secret no longer configured); it was treated as signed out and cleared. Expected after a secret change; otherwise check that every instance has the same AUTH_SECRET.",
  "session-revoked":
    "A revoked or over-age session was refused and its cookie cleared (signed out elsewhere, signed out everywhere, its database row gone or expired, or past session.absoluteMaxAge). Expected after a sign-out; nothing to do. A user event, logged at debug.",
  "secret-weak":
    "The secret is shorter than 32 bytes: production refuses it. Run `npx latchkey secret` and set the result as AUTH_SECRET.",
  "env-url-basepath-redundant":
    "AUTH_URL has a path and `basePath` is set too; `basePath` wins. Remove one of them.",
  "provider-unusable":
    "A provider lacks what it needs to sign anyone in; its button leads to the error page until the setting below is provided.",
  "check-failed":
    "An OAuth sign-in came back without a valid state, PKCE or nonce cookie (it expired, was already used, or the callback was opened in another browser); the user was sent to the sign-in page to start again. Frequent for one provider: check that its callback URL uses the same host as AUTH_URL.",
  "credentials-refused":
    "A credentials sign-in was refused (authorize returned null or threw CredentialsSignin). Logged every time, as a security log needs each failed attempt; rate limits apply.",
  "reauthentication-required":
    "A change that adds a way into the account or changes its settings (a passkey, a linked account, two-factor) was refused: the session's sign-in is not recent, or lacks the second factor the account has on. The user was asked to sign in again; a copied session cannot do it. A user event, logged at debug.",
  "host-mismatch":
    "A request reached the app on a different origin than AUTH_URL's, so cookies are set for one host and redirects go to the other: the user looks signed out. Open the app at AUTH_URL, or change AUTH_URL.",
  "account-refused":
    "An account change (passkey, session or linked account) was refused: signed out, no recent sign-in, a CSRF check failed, an item not in this account, or the last way to sign in. A user event, logged at debug.",
  "account-api-unsupported":
    "The adapter lacks optional methods of the account API: those sections of GET /account are null and those changes answer 501 NotSupportedByAdapter. Use an adapter that implements them (e.g. @latchkey/adapter-postgres).",
  "store-per-isolate":
    'No shared `store` is set, and this runtime serves the app from many isolates, each with its own memory: what Latchkey keeps in the store holds per isolate only (weakened below). Set `store` to a shared one: @latchkey/store-durable-object on Cloudflare, @latchkey/store-upstash (HTTP) on Vercel Edge, Netlify Edge or Deno Deploy, or @latchkey/store-redis where TCP connections work (see the README\'s "Several instances").',
  "client-ip-unreadable":
    "`rateLimit.getClientIp` returned something that is not an IPv4 or IPv6 address (an optional port and brackets are fine), so that request was not counted by the per-IP limit. Return the client's address, e.g. from the header your proxy sets, or leave getClientIp out to use X-Forwarded-For, X-Real-IP and the connection.",
})

/**
 * The sentence for `code` in `texts`, followed by the call's own detail (what failed, which
 * setting). A code without one (a feature's, logged where that feature is not configured) is
 * named instead, never printed as "undefined".
 */
export function warningText(
  code: LogCode,
  detail: string | undefined,
  texts: LogTexts = WARNING_TEXT,
): string {
  const text = texts[code] ?? `(${code})`
  return detail ? `${text} ${detail}` : text
}
