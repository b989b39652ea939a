/** `GET|POST /callback/<provider>`: dispatched to the provider kind's handler. */

import { InvalidProvider } from "../errors/errors.js"
import type { RequestContext } from "../http/context.js"
import type { Outcome } from "../http/outcome.js"
import { callbackHandlerOf } from "./callback-handlers.js"
import { requireProvider } from "./provider.js"

export async function callbackAction(ctx: RequestContext): Promise<Outcome> {
  const provider = requireProvider(ctx)
  const handler = callbackHandlerOf(provider)
  if (!handler) {
    throw new InvalidProvider(`Callbacks of "${provider.type}" providers are not available`)
  }
  return handler(ctx, provider)
}
