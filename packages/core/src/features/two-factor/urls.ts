/** Where the second-factor page is: `pages.twoFactor`, else the built-in one. */
import { actionUrl, type RequestContext } from "../../kernel/http/context.js"

export function twoFactorPageUrl(
  ctx: Pick<RequestContext, "origin" | "config">,
  params: Record<string, string | undefined> = {},
): string {
  const custom = ctx.config.pages.twoFactor
  const url = new URL(custom ?? actionUrl(ctx, "two-factor"), ctx.origin)
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value)
  }
  return url.href
}
