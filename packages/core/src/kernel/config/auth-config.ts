/**
 * The configuration as the kernel reads it, and what sessions, users and accounts look like.
 * Names and shapes follow Auth.js v5 so that an `auth.ts` written for `@auth/core` type-checks
 * unchanged. The public `AuthConfig` (`src/types.ts`) adds what features read (`twoFactor`, …):
 * the kernel never reads those keys itself.
 */

import type { EventCallbacks } from "../events/callbacks.js"
import type { LoggerInstance } from "../logger/logger.js"
import type { JWT, JWTOptions } from "../token/jwt.js"
import type { Adapter, AdapterSession, AdapterUser } from "../types/adapters.js"
import type { Awaitable } from "../types/awaitable.js"
import type { PartialCookiesOptions } from "../types/cookies.js"
import type { PagesOptions, Theme } from "../types/pages.js"
import type { Provider } from "../types/provider.js"
import type { Account, DefaultSession, Profile, Session, User } from "../types/records.js"
import type { Store } from "../types/store.js"

export type { WarningCode } from "../errors/warnings.js"
export type { EventCallbacks } from "../events/callbacks.js"
export type { LoggerInstance } from "../logger/logger.js"
// The records and shapes below the configuration live in modules that import nothing above
// them (kernel/types/*, kernel/errors/warnings.ts), so adapters, providers and errors can use them without
// importing this module back; their public names are re-exported here as before.
export type { Awaitable } from "../types/awaitable.js"
export type {
  CookieOption,
  CookiesOptions,
  PartialCookiesOptions,
  ResponseCookie,
} from "../types/cookies.js"
export type { PagesOptions, Theme } from "../types/pages.js"
export type { Account, DefaultSession, Profile, Session, User } from "../types/records.js"

export type SessionStrategy = "jwt" | "database"

export interface SessionOptions {
  /** Default: `"database"` with an adapter, `"jwt"` without. */
  strategy?: SessionStrategy
  /** Seconds a session lives without activity. Default 30 days. */
  maxAge?: number
  /** Seconds between session re-issues; 0 re-issues on every read. Default 1 day. */
  updateAge?: number
  /** Database sessions: the token put in the cookie. Default: 32 CSPRNG bytes, base64url. */
  generateSessionToken?: () => string
  /**
   * When a JWT session is checked against revocation (sign-out, `revokeSession`,
   * `revokeUserSessions`): `"strict"` on every read (one store or database lookup per read);
   * `"reissue"` (default) when the token is re-issued, at most once per `updateAge` — a
   * revoked copy keeps working until then; `"off"`: never (Auth.js's behaviour).
   */
  revocation?: SessionRevocationMode
  /**
   * Seconds after sign-in (`auth_time`) at which a session ends however often it is renewed
   * (ASVS 7.3.2). Default: no cap.
   */
  absoluteMaxAge?: number
  /**
   * What a read does when the revocation state cannot be reached (store or database down):
   * `"closed"` (default) treats the session as absent for that request (the cookie is kept,
   * so it works again once the state is back); `"open"` trusts the token. Logged either way.
   */
  revocationFailure?: "closed" | "open"
  /**
   * Seconds after sign-in (`auth_time`) during which the session counts as a recent sign-in:
   * what every account change (`POST {basePath}/account/<op>`) and `requireRecentAuth` need.
   * A session whose sign-in time is unknown (issued by Auth.js) is never recent. Default 600.
   */
  recentAuthMaxAge?: number
  /**
   * JWT sessions with revocation on: most sessions the store lists per user ("your devices").
   * A sign-in past it drops the oldest entry in the same atomic write, so one account signed in
   * again and again never grows the store. A session that fell off the list still works and
   * still ends with "sign out everywhere" (the user's session version). Default 50.
   */
  maxListedSessions?: number
}

export type SessionRevocationMode = "strict" | "reissue" | "off"

export interface CallbacksOptions {
  /**
   * Decide whether a user may sign in: `true` continues, `false` sends them to the error page
   * (`AccessDenied`), a string redirects there instead.
   */
  signIn?: (params: {
    user: User | AdapterUser
    account?: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  /** Pick where to send the user; the default allows relative and same-origin URLs only. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Build what the client sees of the session. */
  session?: (params: {
    session: Session & Partial<AdapterSession>
    token: JWT
    user: AdapterUser
    newSession?: unknown
    trigger?: "update"
  }) => Awaitable<Session | DefaultSession>
  /** Build the JWT stored in the session cookie (JWT strategy). Return `null` to sign out. */
  jwt?: (params: {
    token: JWT
    user: User | AdapterUser
    account?: Account | null
    profile?: Profile
    trigger?: "signIn" | "signUp" | "update"
    isNewUser?: boolean
    session?: unknown
  }) => Awaitable<JWT | null>
}

/** The configuration of Latchkey, shaped like Auth.js v5's `AuthConfig`. */
export interface AuthConfig {
  providers: Provider[]
  /** One secret, or several for rotation: the first encrypts, all decrypt. */
  secret?: string | string[]
  session?: SessionOptions
  jwt?: Partial<JWTOptions>
  pages?: PagesOptions
  callbacks?: CallbacksOptions
  events?: EventCallbacks
  adapter?: Adapter
  debug?: boolean
  logger?: Partial<LoggerInstance>
  theme?: Theme
  useSecureCookies?: boolean
  cookies?: PartialCookiesOptions
  /** Trust the request's Host header (or set `AUTH_TRUST_HOST` / `AUTH_URL`). */
  trustHost?: boolean
  /** Path the auth endpoints live under. Default `/auth` (or the path of `url`). */
  basePath?: string
  /**
   * The app's public URL (`AUTH_URL`; `setEnvDefaults` copies it here). When set, its origin is
   * the origin of every redirect and its protocol decides secure cookies, whatever the Host
   * header says.
   */
  url?: string
  redirectProxyUrl?: string
  /** Pass `skipCSRFCheck` only from a framework with its own CSRF protection. */
  skipCSRFCheck?: typeof import("../csrf/skip.js").skipCSRFCheck
  experimental?: { enableWebAuthn?: boolean }
  /**
   * Where rate-limit counters and single-use state live. Default: this process's memory
   * (`MemoryStore`), which is right for one instance only; several instances share one store,
   * e.g. `RedisStore` from `@latchkey/store-redis`. See `@latchkey/core/store`.
   */
  store?: Store
  /** The account API (`{basePath}/account`): see `AccountOptions`. */
  account?: import("../types/account-options.js").AccountOptions
}
