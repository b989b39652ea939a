/** Drive the OAuth flow functions the way the core's actions will: a browser's cookie jar. */

import type { OAuthFlowContext } from "../../../src/features/oauth/context.js"
import { buildCookies } from "../../../src/kernel/cookies/defaults.js"
import type { ResponseCookie } from "../../../src/types.js"

export const SECRET = "a-test-secret-with-at-least-32-bytes-of-entropy!"

export function flowContext(
  providerId: string,
  overrides: Partial<OAuthFlowContext> & { secure?: boolean; origin?: string } = {},
): OAuthFlowContext {
  const { secure = false, origin = "http://127.0.0.1:3999", ...rest } = overrides
  return {
    secret: [SECRET],
    cookies: buildCookies(secure, undefined),
    callbackUrl: `${origin}/auth/callback/${providerId}`,
    ...rest,
  }
}

/** Browser-side cookie store for the app's origin. */
export class AppCookies {
  readonly values: Record<string, string | undefined> = {}

  apply(cookies: readonly ResponseCookie[]): void {
    for (const c of cookies) {
      if (c.value === "" || c.options.maxAge === 0) delete this.values[c.name]
      else this.values[c.name] = c.value
    }
  }

  copy(): Record<string, string | undefined> {
    return { ...this.values }
  }
}
