/**
 * The configuration check, run once per config at first use. It collects every problem
 * instead of stopping at the first, so one start-up shows the whole list.
 */

import {
  type AuthError,
  InvalidParameter,
  InvalidProvider,
  MissingAdapter,
  MissingAdapterMethods,
  MissingSecret,
} from "../errors/errors.js"
import type { WarningCode } from "../errors/warnings.js"
import { checkIpv6Prefix } from "../rate-limit/client-ip.js"
import type { Adapter } from "../types/adapters.js"
import type { ProviderConfig } from "../types/provider.js"
import { checkAccountRateLimit } from "./account-change-limit.js"
import type { AuthConfig } from "./auth-config.js"
import type { EnvObject } from "./env.js"
import { type ConfigFeature, type ConfigReport, featureOf } from "./features.js"

/** 256 bits: the floor for secrets that key the session encryption (ASVS 11.2.3). */
export const MIN_SECRET_BYTES = 32

export interface AssertInput {
  providers: readonly ProviderConfig[]
  /** The features the providers and the configuration bring. */
  features: readonly ConfigFeature[]
  secret: readonly string[]
  session: {
    strategy: string
    maxAge: number
    updateAge: number
    revocation?: string
    absoluteMaxAge?: number | undefined
    revocationFailure?: string
    recentAuthMaxAge?: number
    maxListedSessions?: number
  }
  env: EnvObject
}

const SESSION_METHODS = [
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
] as const

const encoder = new TextEncoder()

/** A warning for the log: its code, and for some what to change. */
export interface ConfigWarning {
  code: WarningCode
  detail?: string
}

export function assertConfig(
  config: AuthConfig,
  input: AssertInput,
): { problems: AuthError[]; warnings: ConfigWarning[] } {
  const problems: AuthError[] = []
  const warnings: ConfigWarning[] = []
  const production = input.env.NODE_ENV === "production"

  if (config.debug) warnings.push({ code: "debug-enabled" })
  // Auth.js warns whenever the flag is on, passkey provider or not.
  if (config.experimental?.enableWebAuthn === true) warnings.push({ code: "experimental-webauthn" })

  if (!Array.isArray(config.providers)) {
    problems.push(new InvalidParameter("providers", "must be an array of providers"))
  }

  if (input.secret.length === 0) {
    problems.push(
      new MissingSecret(
        "No secret is configured. Run `npx latchkey secret` and set what it prints as AUTH_SECRET (or as `secret` in the config).",
      ),
    )
  } else if (input.secret.some((s) => encoder.encode(s).byteLength < MIN_SECRET_BYTES)) {
    if (production) {
      problems.push(
        new InvalidParameter(
          "secret",
          `must be at least ${MIN_SECRET_BYTES} bytes in production (every rotation secret too); generate one with \`npx latchkey secret\``,
        ),
      )
    } else {
      warnings.push({ code: "secret-weak" })
    }
  }

  checkBasePath(config.basePath, problems)
  checkSessionNumbers(input.session, problems)
  checkPages(config, problems)
  checkProviders(input, problems)
  checkFeatureKeys(config, problems)
  const report: ConfigReport = { problems, warnings }
  for (const feature of input.features) feature.check?.({ config, ...input }, report)
  checkAdapterFeature(config.adapter, problems)
  checkAdapter(config.adapter, input, problems)
  checkAccountRateLimit(config.account?.rateLimit, problems)
  return { problems, warnings }
}

function checkBasePath(basePath: string | undefined, problems: AuthError[]): void {
  if (basePath === undefined) return
  if (typeof basePath !== "string" || !/^\/?[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/.test(basePath)) {
    problems.push(new InvalidParameter("basePath", "must be a URL path such as /auth"))
  }
}

function checkSessionNumbers(session: AssertInput["session"], problems: AuthError[]): void {
  const ok = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0
  if (!ok(session.maxAge) || session.maxAge === 0) {
    problems.push(new InvalidParameter("session.maxAge", "must be a positive number of seconds"))
  }
  if (!ok(session.updateAge)) {
    problems.push(new InvalidParameter("session.updateAge", "must be 0 or more seconds"))
  }
  if (session.recentAuthMaxAge !== undefined && !ok(session.recentAuthMaxAge)) {
    problems.push(new InvalidParameter("session.recentAuthMaxAge", "must be 0 or more seconds"))
  }
  const listed = session.maxListedSessions
  if (listed !== undefined && !(Number.isInteger(listed) && listed >= 1 && listed <= 1000)) {
    problems.push(
      new InvalidParameter("session.maxListedSessions", "must be a whole number from 1 to 1000"),
    )
  }
  if (session.strategy !== "jwt" && session.strategy !== "database") {
    problems.push(new InvalidParameter("session.strategy", 'must be "jwt" or "database"'))
  }
  checkRevocationOptions(session, problems)
}

function checkRevocationOptions(session: AssertInput["session"], problems: AuthError[]): void {
  const { revocation, absoluteMaxAge, revocationFailure } = session
  if (revocation !== undefined && !["strict", "reissue", "off"].includes(revocation)) {
    problems.push(
      new InvalidParameter("session.revocation", 'must be "strict", "reissue" or "off"'),
    )
  }
  if (
    absoluteMaxAge !== undefined &&
    (typeof absoluteMaxAge !== "number" || !Number.isFinite(absoluteMaxAge) || absoluteMaxAge <= 0)
  ) {
    problems.push(
      new InvalidParameter("session.absoluteMaxAge", "must be a positive number of seconds"),
    )
  }
  if (revocationFailure !== undefined && !["closed", "open"].includes(revocationFailure)) {
    problems.push(new InvalidParameter("session.revocationFailure", 'must be "closed" or "open"'))
  }
}

function checkPages(config: AuthConfig, problems: AuthError[]): void {
  for (const [key, value] of Object.entries(config.pages ?? {})) {
    if (value === undefined) continue
    const isPath = typeof value === "string" && value.startsWith("/") && !value.startsWith("//")
    const isUrl = typeof value === "string" && /^https?:\/\//i.test(value) && URL.canParse(value)
    if (!isPath && !isUrl) {
      problems.push(
        new InvalidParameter(`pages.${key}`, "must be a path (/login) or an absolute http(s) URL"),
      )
    }
  }
}

/**
 * What every provider needs, whatever its kind: a URL-safe id of its own, a per-IP limit that
 * parses, and a feature to serve it (a provider object made by its factory carries one; an
 * Auth.js-style object gets its feature from `withPlainProviders`). The kind's own checks are
 * its feature's.
 */
function checkProviders(input: AssertInput, problems: AuthError[]): void {
  const seen = new Set<string>()
  for (const provider of input.providers) {
    if (typeof provider.id !== "string" || provider.id === "" || /[/?#\s]/.test(provider.id)) {
      problems.push(
        new InvalidProvider(
          `A provider has an invalid id (${JSON.stringify(provider.id)}): use a URL-safe name`,
        ),
      )
      continue
    }
    if (seen.has(provider.id)) {
      problems.push(
        new InvalidProvider(
          `Two providers have the id "${provider.id}": give one of them another \`id\``,
        ),
      )
    }
    seen.add(provider.id)
    const { rateLimit } = provider as { rateLimit?: { ipv6Prefix?: unknown } | false }
    checkIpv6Prefix(`providers["${provider.id}"].rateLimit`, rateLimit, problems)
    if (!featureOf(provider)) {
      problems.push(
        new InvalidProvider(
          `Provider "${provider.id}" of type ${JSON.stringify((provider as { type: unknown }).type)} is a plain object, which brings no code to serve it: make it with its factory (OAuth() from @latchkey/core/providers/oauth for a server with no preset, Credentials(), Email()), or pass the config through withPlainProviders() from @latchkey/core/plain-providers as the Qwik bindings do`,
        ),
      )
    }
  }
}

/** The configuration keys whose value brings a feature: the factory that makes it, its module. */
const FEATURE_KEYS: Readonly<Record<string, readonly [factory: string, module: string]>> = {
  twoFactor: ["TwoFactor", "@latchkey/core/two-factor"],
  organizations: ["Organizations", "@latchkey/core/organizations"],
}

/** A feature key set to plain options would be ignored without a word: it is refused instead. */
function checkFeatureKeys(config: AuthConfig, problems: AuthError[]): void {
  for (const [key, [factory, module]] of Object.entries(FEATURE_KEYS)) {
    const value = (config as unknown as Record<string, unknown>)[key]
    if (value === undefined || value === null || featureOf(value)) continue
    problems.push(
      new InvalidParameter(
        key,
        `is plain options, which bring no code to serve them: write ${key}: ${factory}({ … }) from ${module}, or pass the config through withPlainProviders() from @latchkey/core/plain-providers as the Qwik bindings do`,
      ),
    )
  }
}

/**
 * An adapter serves sign-in through the feature it carries (`features/adapter/`): a Latchkey
 * adapter is made with it; an Auth.js adapter, or an object of methods, is given it by
 * `withAdapterFeature` or `withPlainProviders`. Without it the adapter would be read for
 * sessions but never written at sign-in: refused instead.
 */
function checkAdapterFeature(adapter: Adapter | undefined, problems: AuthError[]): void {
  if (adapter === undefined || adapter === null || featureOf(adapter)) return
  problems.push(
    new InvalidParameter(
      "adapter",
      "is an adapter that brings no code to serve it (an Auth.js adapter, or an object of methods): write adapter: withAdapterFeature(YourAdapter(…)) with withAdapterFeature from @latchkey/core/adapters, or pass the config through withPlainProviders() from @latchkey/core/plain-providers as the Qwik bindings do. Latchkey's own adapters need neither",
    ),
  )
}

/**
 * The adapter methods every part of the configuration needs, named in one error: the
 * database sessions' own, and each feature's (`adapterNeeds`). A feature that cannot work
 * without an adapter at all says so with its own `MissingAdapter`.
 */
function checkAdapter(
  adapter: Adapter | undefined,
  input: AssertInput & { config?: AuthConfig },
  problems: AuthError[],
): void {
  const needs = new Set<string>()
  if (input.session.strategy === "database") {
    if (!adapter) {
      problems.push(
        new MissingAdapter(
          'session.strategy "database" needs an adapter: pass `adapter`, or use strategy "jwt"',
        ),
      )
    }
    for (const m of SESSION_METHODS) needs.add(m)
  }
  for (const feature of input.features) {
    const wanted = feature.adapterNeeds?.(input.providers)
    if (!wanted) continue
    if (!adapter && wanted.withoutAdapter) problems.push(wanted.withoutAdapter)
    for (const m of wanted.methods) needs.add(m)
  }
  if (!adapter) return
  const missing = [...needs].filter(
    (m) => typeof (adapter as Record<string, unknown>)[m] !== "function",
  )
  if (missing.length > 0) {
    problems.push(new MissingAdapterMethods(`The adapter lacks: ${missing.sort().join(", ")}`))
  }
}
