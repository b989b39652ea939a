/** `GET|POST /callback/<provider>`: dispatched to the provider kind's handler. */

import type { RequestContext } from "../../context.js"
import { InvalidProvider } from "../../errors.js"
import type { Outcome } from "../../http/outcome.js"
import { requireProvider } from "../provider.js"
import { callbackHandlerOf } from "./handlers.js"

export async function callbackAction(ctx: RequestContext): Promise<Outcome> {
  const provider = requireProvider(ctx)
  const handler = callbackHandlerOf(provider)
  if (!handler) {
    throw new InvalidProvider(`Callbacks of "${provider.type}" providers are not available`)
  }
  return handler(ctx, provider)
}
