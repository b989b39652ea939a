/** The provider named in the URL, or a 400 `InvalidProvider`. */

import { InvalidProvider } from "../errors/errors.js"
import type { RequestContext } from "../http/context.js"
import type { ProviderConfig } from "../types/provider.js"

export function requireProvider(ctx: RequestContext): ProviderConfig {
  const id = ctx.providerId
  if (id === undefined) {
    throw new InvalidProvider(
      `The ${ctx.action} action needs a provider id: ${ctx.action}/<provider>`,
    )
  }
  const provider = ctx.config.providerById.get(id)
  if (!provider) {
    throw new InvalidProvider(
      `No provider with id ${JSON.stringify(id.slice(0, 64))} is configured`,
    )
  }
  return provider
}
