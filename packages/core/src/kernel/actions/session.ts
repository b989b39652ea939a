/** `GET /session` reads, `POST /session` updates (trigger `update`, CSRF-checked). */

import { requireCsrf } from "../csrf/require.js"
import { addCookies, type RequestContext } from "../http/context.js"
import { json, NO_CACHE_HEADERS, type Outcome } from "../http/outcome.js"
import { sessionContext } from "../session/from-request.js"
import { readSession } from "../session/read.js"

export async function getSessionAction(ctx: RequestContext): Promise<Outcome> {
  const { session, cookies } = await readSession(sessionContext(ctx))
  addCookies(ctx, cookies)
  return json(session, 200, NO_CACHE_HEADERS)
}

export async function updateSessionAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const { session, cookies } = await readSession(sessionContext(ctx), {
    data: ctx.parsed.body.data,
  })
  addCookies(ctx, cookies)
  return json(session, 200, NO_CACHE_HEADERS)
}
