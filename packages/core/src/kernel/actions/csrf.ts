/** `GET /csrf`: the double-submit token for custom forms and clients. */

import { deletionCookie } from "../cookies/serialize.js"
import { ensureCsrfToken } from "../csrf/ensure.js"
import { addCookies, type RequestContext } from "../http/context.js"
import { json, NO_CACHE_HEADERS, type Outcome } from "../http/outcome.js"

export async function csrfAction(ctx: RequestContext): Promise<Outcome> {
  if (ctx.config.skipCSRFCheck) {
    // Auth.js behaviour: the endpoint does not exist, and a stale token cookie is removed.
    ctx.logger.warn("csrf-disabled")
    const { name, options } = ctx.cookies.csrfToken
    addCookies(ctx, [deletionCookie(name, options)])
    return { kind: "empty", status: 404 }
  }
  const csrfToken = await ensureCsrfToken(ctx)
  return json({ csrfToken }, 200, NO_CACHE_HEADERS)
}
