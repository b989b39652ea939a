/** What reading or issuing a session needs: less than a full request context, so
 * `getSession` can run without routing, body parsing or CSRF. */

import type { ResolvedConfig } from "../config/resolve.js"
import type { Logger } from "../logger/logger.js"
import type { CookiesOptions, ResponseCookie } from "../types/cookies.js"
import type { Session } from "../types/records.js"

export interface SessionContext {
  readonly config: ResolvedConfig
  readonly logger: Logger
  readonly cookies: CookiesOptions
  readonly requestCookies: Readonly<Record<string, string | undefined>>
}

export interface SessionResult {
  session: Session | null
  /** Cookies to set: a refreshed session, or deletions of an unreadable one. */
  cookies: ResponseCookie[]
}

/** A session update (`POST /session`): `data` is the client's payload. */
export interface SessionUpdate {
  data: unknown
}
