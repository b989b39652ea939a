import type { RequestContext } from "../http/context.js"
import type { SessionContext } from "./context.js"

export function sessionContext(ctx: RequestContext): SessionContext {
  return {
    config: ctx.config,
    logger: ctx.logger,
    cookies: ctx.cookies,
    requestCookies: ctx.parsed.cookies,
  }
}
