/** `GET /providers`: the configured providers and their URLs (no secrets, no cookies). */
import { actionUrl, type RequestContext } from "../http/context.js"
import { json, type Outcome } from "../http/outcome.js"

export async function providersAction(ctx: RequestContext): Promise<Outcome> {
  const body: Record<string, unknown> = {}
  for (const p of ctx.config.providers) {
    body[p.id] = {
      id: p.id,
      name: p.name,
      type: p.type,
      signinUrl: actionUrl(ctx, "signin", p.id),
      callbackUrl: actionUrl(ctx, "callback", p.id),
    }
  }
  return json(body)
}
