/** Gate for state-changing POSTs: throws `MissingCSRF` (403) unless `checkCsrf` passes. */

import { MissingCSRF } from "../errors/errors.js"
import type { RequestContext } from "../http/context.js"
import { checkCsrf } from "./check.js"

const REASONS = {
  "cross-origin": "The request's Origin is not this app's origin",
  "cross-site": "The request came from another site or subdomain (Sec-Fetch-Site)",
  "missing-token": "The request carried neither Origin nor Sec-Fetch-Site, and no csrfToken",
  "invalid-token": "The csrfToken did not match a valid CSRF cookie of this session",
} as const

export async function requireCsrf(ctx: RequestContext): Promise<void> {
  const verdict = await checkCsrf(ctx)
  if (verdict.ok) {
    ctx.logger.debug("CSRF check passed", { via: verdict.via })
    return
  }
  throw new MissingCSRF(`${REASONS[verdict.reason]} (${ctx.action})`, {
    details: { reason: verdict.reason, action: ctx.action },
  })
}
