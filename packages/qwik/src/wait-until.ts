/**
 * The platform's `waitUntil` for one request, handed to the core so that work it leaves for after
 * the response (mail whose due depends on an account) is not cut off when the response is sent:
 * Cloudflare (`platform.ctx.waitUntil`), Netlify Edge (its context is the platform), Vercel
 * (the request context `@vercel/functions` reads). Node, Bun and Deno servers need none.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"

type WaitUntil = (promise: Promise<unknown>) => void

interface MaybeWaits {
  waitUntil?: unknown
}

function bound(owner: MaybeWaits | undefined): WaitUntil | undefined {
  const waitUntil = owner?.waitUntil
  return typeof waitUntil === "function" ? (p) => waitUntil.call(owner, p) : undefined
}

const VERCEL_CONTEXT = Symbol.for("@vercel/request-context")

export function platformWaitUntil(event: RequestEventCommon): WaitUntil | undefined {
  const platform = event.platform as { ctx?: MaybeWaits } & MaybeWaits
  const vercel = (globalThis as { [VERCEL_CONTEXT]?: { get?: () => MaybeWaits | undefined } })[
    VERCEL_CONTEXT
  ]
  return bound(platform?.ctx) ?? bound(platform) ?? bound(vercel?.get?.())
}
