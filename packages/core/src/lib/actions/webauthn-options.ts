/** `GET /webauthn-options/<provider>`: WebAuthn ceremonies are not implemented yet. */
import { InvalidProvider } from "../../errors.js"
import type { RequestContext } from "../context.js"
import type { Outcome } from "../http/outcome.js"
import { requireProvider } from "./provider.js"

export async function webauthnOptionsAction(ctx: RequestContext): Promise<Outcome> {
  const provider = requireProvider(ctx)
  throw new InvalidProvider(`Provider "${provider.id}" offers no WebAuthn options`)
}
