/**
 * The warning an app gets when its guarantees hold per isolate only. Without a `store`, every
 * single-use marker, counter and revocation lives in memory. On Node or Bun that memory is the
 * one long-lived process; on Cloudflare Workers, Vercel Edge and Deno Deploy the platform runs
 * many short-lived isolates side by side, each with its own memory, so a TOTP code is single-use
 * per isolate, a rate limit counts per isolate, and a sign-out reaches one isolate. Nothing fails,
 * so nothing would tell the app author: this says what is weakened and how to fix it, once.
 *
 * The runtime is read from the globals each platform documents (no `node:` import: this runs
 * everywhere).
 */

import type { Logger } from "../logger/logger.js"
import { MemoryStore } from "../rate-limit/memory-store.js"
import { hasRevocationMethods } from "../types/adapters.js"
import type { ProviderConfig } from "../types/provider.js"
import type { AuthConfig } from "./auth-config.js"
import type { ConfigFeature } from "./features.js"

/** A runtime where one app is served by many isolates, each with its own memory. */
export type IsolateRuntime = "Cloudflare Workers" | "Vercel Edge" | "Netlify Edge" | "Deno Deploy"

interface RuntimeGlobals {
  navigator?: { userAgent?: unknown }
  EdgeRuntime?: unknown
  Netlify?: unknown
  Deno?: {
    env?: { get?: (name: string) => string | undefined }
    permissions?: { querySync?: (d: { name: "env"; variable: string }) => { state: string } }
  }
}

/** Which isolate runtime this code runs on, or `undefined` (Node, Bun, Deno on a server). */
export function isolateRuntime(
  globals: RuntimeGlobals = globalThis as RuntimeGlobals,
): IsolateRuntime | undefined {
  // workerd sets this exact user agent (Cloudflare's docs: "Cloudflare-Workers").
  if (globals.navigator?.userAgent === "Cloudflare-Workers") return "Cloudflare Workers"
  // Vercel's documented check for its Edge Runtime.
  if (typeof globals.EdgeRuntime === "string") return "Vercel Edge"
  // Netlify's Edge Functions (Deno isolates) expose the `Netlify` global.
  if (typeof globals.Netlify === "object" && globals.Netlify !== null) return "Netlify Edge"
  if (denoDeploymentId(globals.Deno) !== undefined) return "Deno Deploy"
  return undefined
}

/**
 * `DENO_DEPLOYMENT_ID`, set by Deno Deploy. Where Deno has a permissions API (the CLI), asked
 * only when env access is already granted: a Deno started without `--allow-env` would
 * otherwise prompt on a terminal or throw. Without one (Deploy), read directly.
 */
function denoDeploymentId(deno: RuntimeGlobals["Deno"]): string | undefined {
  if (deno === undefined) return undefined
  try {
    const query = deno.permissions?.querySync
    if (typeof query === "function") {
      const permission = query.call(deno.permissions, {
        name: "env",
        variable: "DENO_DEPLOYMENT_ID",
      })
      if (permission?.state !== "granted") return undefined
    }
    return deno.env?.get?.("DENO_DEPLOYMENT_ID") || undefined
  } catch {
    return undefined
  }
}

interface ConfigFacts {
  providers: readonly ProviderConfig[]
  features: readonly ConfigFeature[]
  strategy: string
  revocation: string
}

/**
 * What holds per isolate only with this config and no shared store: one phrase each, in the
 * order the README's "Several instances" table lists them. Empty when nothing rests on the store.
 */
export function perIsolateGuarantees(config: AuthConfig, facts: ConfigFacts): string[] {
  // What each configured feature keeps in the store (a code's step, a challenge, a state).
  const weakened: string[] = facts.features.flatMap((f) => (f.perIsolate ? [f.perIsolate] : []))
  if (facts.providers.some(countsInConfigStore))
    weakened.push("sign-in rate limits count per isolate")
  if (
    facts.strategy === "jwt" &&
    facts.revocation !== "off" &&
    !hasRevocationMethods(config.adapter)
  )
    weakened.push(
      "a revoked session (sign-out elsewhere, revokeSession) is refused only by the isolate that revoked it, and strict revocation is not possible",
    )
  return weakened
}

/** A provider whose sign-in limits are on and counted in the top-level store. */
function countsInConfigStore(provider: ProviderConfig): boolean {
  if (!["credentials", "email", "webauthn"].includes(provider.type)) return false
  const rateLimit = (provider as { rateLimit?: { store?: unknown } | false }).rateLimit
  return rateLimit !== false && rateLimit?.store === undefined
}

/**
 * Logs `store-per-isolate` (once per process: the logger folds repeats) when this runtime runs
 * isolates, the store is memory, and something in this config rests on it.
 */
export function warnIfPerIsolate(
  config: AuthConfig,
  facts: ConfigFacts,
  logger: Logger,
  runtime: IsolateRuntime | undefined = isolateRuntime(),
): void {
  if (runtime === undefined) return
  if (config.store !== undefined && !(config.store instanceof MemoryStore)) return
  const weakened = perIsolateGuarantees(config, facts)
  if (weakened.length === 0) return
  logger.warn("store-per-isolate", `(on ${runtime}: ${weakened.join("; ")}.)`)
}
