/**
 * What the OAuth flow needs from the core for one request. Deliberately small, so the flow can
 * be driven (and tested) without the rest of the handler.
 */

import type { CookiesOptions } from "../../kernel/types/cookies.js"
import type { Store } from "../../kernel/types/store.js"

export interface OAuthFlowContext {
  /** Every secret, the encrypting one first (the resolved config's `secret`). */
  readonly secret: readonly string[]
  /** This request's cookie names and options (secure or not): the three check cookies. */
  readonly cookies: Pick<CookiesOptions, "pkceCodeVerifier" | "state" | "nonce">
  /** This deployment's `<origin><basePath>/callback/<providerId>`. */
  readonly callbackUrl: string
  /** Config-wide `redirectProxyUrl` (`AUTH_REDIRECT_PROXY_URL`); the provider's own wins. */
  readonly redirectProxyUrl?: string | undefined
  readonly logger?: {
    debug(message: string, metadata?: Record<string, unknown>): void
  }
  /** Where consumed states are remembered (`config.store`). Default: the memory store. */
  readonly store?: Store
  /**
   * The browser session of this request (`kernel/session/binding.ts`: a hash, `""` signed out).
   * Sealed into the state cookie when the flow starts; the callback is refused when it
   * arrives in another session. Absent: not checked (the flow driven on its own, in tests).
   */
  readonly session?: string
  /** Clock in milliseconds (tests). */
  readonly now?: () => number
}
