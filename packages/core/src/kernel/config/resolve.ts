/**
 * The user's config, resolved once into a frozen internal object: defaults applied, providers
 * normalised, cookies built for both schemes, adapter wrapped, problems collected. Cached per
 * config object, so a request pays for none of this; the user's object is never modified.
 */

import { buildCookies } from "../cookies/defaults.js"
import { generateSessionToken } from "../crypto/random.js"
import { skipCSRFCheck } from "../csrf/skip.js"
import { AdapterError, type AuthError, InvalidConfiguration } from "../errors/errors.js"
import { type LogTexts, WARNING_TEXT } from "../errors/warnings.js"
import { createLogger, type Logger } from "../logger/logger.js"
import { defaultStore } from "../rate-limit/memory-store.js"
import { readProcessEnv } from "../runtime/process-env.js"
import { DEFAULT_MAX_AGE, decode, encode, type JWTOptions } from "../token/jwt.js"
import type { AccountOptions } from "../types/account-options.js"
import {
  type Adapter,
  accountApiAdapterMethods,
  adapterMethods,
  organizationAdapterMethods,
  ownershipAdapterMethods,
  passwordAdapterMethods,
} from "../types/adapters.js"
import type { CookiesOptions } from "../types/cookies.js"
import type { PagesOptions, Theme } from "../types/pages.js"
import type { ProviderConfig } from "../types/provider.js"
import type { Store } from "../types/store.js"
import { defaultRedirect } from "../urls/redirect.js"
import { assertConfig } from "./assert.js"
import type {
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  SessionRevocationMode,
  SessionStrategy,
} from "./auth-config.js"
import { type ConfigFeature, type ConfigReport, featuresBroughtBy } from "./features.js"
import { warnIfPerIsolate } from "./isolate-warning.js"

export const DEFAULT_BASE_PATH = "/auth"

/** The `jwt` callback when the app sets none: the token as it is. */
export const defaultJwtCallback: Required<CallbacksOptions>["jwt"] = ({ token }) => token
export const DEFAULT_UPDATE_AGE = 24 * 60 * 60
/** Ten minutes: long enough to finish an account change, short enough that a borrowed
 * signed-in device cannot delete passkeys hours later. */
export const DEFAULT_RECENT_AUTH_MAX_AGE = 10 * 60
/** Most sessions listed per user: the newest sign-ins (`session.maxListedSessions`). */
export const DEFAULT_MAX_LISTED_SESSIONS = 50

export interface ResolvedSessionOptions {
  readonly strategy: SessionStrategy
  readonly maxAge: number
  readonly updateAge: number
  readonly generateSessionToken: () => string
  readonly revocation: SessionRevocationMode
  readonly absoluteMaxAge: number | undefined
  readonly revocationFailure: "closed" | "open"
  /** Seconds a sign-in counts as recent for account changes (default 600). */
  readonly recentAuthMaxAge: number
  /** Most sessions listed per user (JWT sessions with revocation on). Default 50. */
  readonly maxListedSessions: number
}

export interface ResolvedConfig {
  readonly basePath: string
  /** Every secret, the encrypting one first. Empty only when `configError` says so. */
  readonly secret: readonly string[]
  readonly providers: readonly ProviderConfig[]
  readonly providerById: ReadonlyMap<string, ProviderConfig>
  readonly session: ResolvedSessionOptions
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<Required<CallbacksOptions>>
  readonly events: Readonly<EventCallbacks>
  readonly account: Readonly<AccountOptions>
  /** Wrapped: each call logs `adapter_<method>` at debug and failures become `AdapterError`. */
  readonly adapter: Adapter | undefined
  readonly logger: Logger
  readonly pages: Readonly<PagesOptions>
  readonly theme: Readonly<Theme>
  readonly cookies: { readonly secure: CookiesOptions; readonly insecure: CookiesOptions }
  /** `undefined`: decided per request from the origin's protocol. */
  readonly useSecureCookies: boolean | undefined
  readonly trustHost: boolean
  /** Parsed `config.url` (AUTH_URL). */
  readonly url: URL | undefined
  readonly skipCSRFCheck: boolean
  readonly redirectProxyUrl: string | undefined
  readonly experimental: Readonly<{ enableWebAuthn: boolean }>
  /** `config.store`, or the process's memory store. */
  readonly store: Store
  /** Every configuration problem at once, or `undefined` when the config is usable. */
  readonly configError: InvalidConfiguration | undefined
  /** The features the providers and the configuration bring (`kernel/feature/feature.ts`), each once. */
  readonly features: readonly ConfigFeature[]
  /** Each feature's part of the configuration, as its `resolve` read it (`settingsOf`). */
  readonly settings: ReadonlyMap<string, unknown>
}

/** What feature `id`'s `resolve` read from the configuration; `undefined` when it is off. */
export function settingsOf<T>(config: Pick<ResolvedConfig, "settings">, id: string): T | undefined {
  return config.settings.get(id) as T | undefined
}

/** The features of `config`: each provider's, then each configuration value's, each once. */
function collectFeatures(
  config: AuthConfig,
  providers: readonly ProviderConfig[],
): ConfigFeature[] {
  const found = new Set<ConfigFeature>()
  for (const value of [...providers, ...Object.values(config)]) {
    for (const feature of featuresBroughtBy(value)) found.add(feature)
  }
  return [...found]
}

/** The sentence of every code the configuration can log: the kernel's, then its features'. */
function logTextsOf(features: readonly ConfigFeature[]): LogTexts {
  const own = features.filter((feature) => feature.logTexts)
  if (own.length === 0) return WARNING_TEXT
  return Object.assign({}, WARNING_TEXT, ...own.map((feature) => feature.logTexts))
}

const cache = new WeakMap<AuthConfig, ResolvedConfig>()

/** The resolved form of `config`, computed on first use and cached by object identity. */
export function resolveConfig(config: AuthConfig): ResolvedConfig {
  const hit = cache.get(config)
  if (hit) return hit
  const resolved = buildResolvedConfig(config)
  cache.set(config, resolved)
  return resolved
}

function buildResolvedConfig(config: AuthConfig): ResolvedConfig {
  const { providers, problems: providerProblems } = normaliseProviders(config.providers)
  const features = collectFeatures(config, providers)
  const logger = createLogger(config, logTextsOf(features))
  const secret = secretList(config.secret)
  const adapter = config.adapter ? wrapAdapter(config.adapter, logger) : undefined
  const sessionMaxAge = config.session?.maxAge ?? DEFAULT_MAX_AGE
  const session: ResolvedSessionOptions = Object.freeze({
    strategy: config.session?.strategy ?? (config.adapter ? "database" : "jwt"),
    maxAge: sessionMaxAge,
    updateAge: config.session?.updateAge ?? DEFAULT_UPDATE_AGE,
    generateSessionToken: config.session?.generateSessionToken ?? generateSessionToken,
    revocation: config.session?.revocation ?? "reissue",
    absoluteMaxAge: config.session?.absoluteMaxAge,
    revocationFailure: config.session?.revocationFailure ?? "closed",
    recentAuthMaxAge: config.session?.recentAuthMaxAge ?? DEFAULT_RECENT_AUTH_MAX_AGE,
    maxListedSessions: config.session?.maxListedSessions ?? DEFAULT_MAX_LISTED_SESSIONS,
  })
  const jwt: JWTOptions = Object.freeze({
    secret: [...secret],
    maxAge: config.jwt?.maxAge ?? sessionMaxAge,
    encode: config.jwt?.encode ?? encode,
    decode: config.jwt?.decode ?? decode,
  })
  const url = config.url !== undefined && URL.canParse(config.url) ? new URL(config.url) : undefined

  const featureReport: ConfigReport = { problems: [], warnings: [] }
  const settings = new Map<string, unknown>()
  for (const feature of features) {
    const raw = config as unknown as Readonly<Record<string, unknown>>
    if (feature.resolve) settings.set(feature.id, feature.resolve(raw, featureReport))
  }
  const { problems, warnings } = assertConfig(config, {
    providers,
    features,
    secret,
    session,
    env: readProcessEnv(),
  })
  warnings.push(...featureReport.warnings)
  const allProblems: AuthError[] = [...providerProblems, ...featureReport.problems, ...problems]
  const configError = allProblems.length > 0 ? new InvalidConfiguration(allProblems) : undefined
  if (configError) logger.error(configError)
  for (const { code, detail } of warnings) logger.warn(code, detail)
  warnIfPerIsolate(config, { providers, features, ...session }, logger)

  return Object.freeze({
    basePath: normaliseBasePath(config.basePath),
    secret: Object.freeze(secret),
    providers: Object.freeze(providers),
    providerById: new Map(providers.map((p) => [p.id, p])),
    session,
    jwt,
    callbacks: Object.freeze({
      signIn: config.callbacks?.signIn ?? (() => true),
      redirect: config.callbacks?.redirect ?? defaultRedirect,
      session: config.callbacks?.session ?? defaultSessionCallback,
      jwt: config.callbacks?.jwt ?? defaultJwtCallback,
    }),
    events: Object.freeze({ ...config.events }),
    account: Object.freeze({ ...config.account }),
    adapter,
    logger,
    pages: Object.freeze({ ...config.pages }),
    theme: Object.freeze({ colorScheme: "auto", ...config.theme }),
    cookies: Object.freeze({
      secure: buildCookies(true, config.cookies),
      insecure: buildCookies(false, config.cookies),
    }),
    useSecureCookies: config.useSecureCookies,
    trustHost: config.trustHost === true,
    url,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    redirectProxyUrl: config.redirectProxyUrl,
    experimental: Object.freeze({ enableWebAuthn: config.experimental?.enableWebAuthn === true }),
    store: config.store ?? defaultStore(secret[0]),
    configError,
    features: Object.freeze(features),
    settings,
  })
}

/** The default `session` callback: name, email, image and expiry — no ids, no tokens. */
const defaultSessionCallback: Required<CallbacksOptions>["session"] = ({ session }) => ({
  user: {
    name: session.user?.name,
    email: session.user?.email,
    image: session.user?.image,
  },
  // Database sessions hand over the adapter row, whose `expires` is a Date.
  expires: toIso(session.expires as unknown),
})

function toIso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : (value as string)
}

function secretList(secret: AuthConfig["secret"]): string[] {
  const list = Array.isArray(secret) ? secret : [secret]
  return list.filter((s): s is string => typeof s === "string" && s.length > 0)
}

/** `/auth` style: leading slash, no trailing slash; `/` stays `/`. */
export function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined) return DEFAULT_BASE_PATH
  const trimmed = `/${basePath.replace(/^\/+|\/+$/g, "")}`
  return trimmed
}

function normaliseProviders(input: AuthConfig["providers"]): {
  providers: ProviderConfig[]
  problems: AuthError[]
} {
  if (!Array.isArray(input)) return { providers: [], problems: [] }
  const providers: ProviderConfig[] = []
  for (const entry of input) {
    const made = typeof entry === "function" ? (entry as () => ProviderConfig)() : entry
    if (!made || typeof made !== "object") continue
    // Auth.js factories park the user's options under `options`; they win over the defaults.
    const merged =
      made.options && typeof made.options === "object"
        ? ({ ...made, ...made.options } as ProviderConfig)
        : { ...made }
    providers.push(Object.freeze(merged))
  }
  return { providers, problems: [] }
}

/**
 * Adapter calls log their name (never their arguments: they carry tokens) and turn failures
 * into `AdapterError` so they are told apart from bugs in the flow. See `adapterFailure` for
 * what such an error may carry.
 */
/** Short identifiers only (SQL states such as `23505`, driver codes such as `ECONNREFUSED`). */
const SAFE_CODE = /^[A-Z0-9_]{1,40}$/i
const SAFE_NAME = /^[A-Za-z]{1,40}$/

/**
 * The error an adapter failure becomes: the method and a code, nothing else. Never the
 * original as `cause`: database drivers keep the statement's parameters on their errors and
 * quote values in messages, and parameters are session and verification tokens. An
 * `AdapterError` without a cause was written by an adapter for logs (as
 * `@latchkey/adapter-postgres` does) and passes as it is.
 */
export function adapterFailure(method: string, thrown: unknown): AdapterError {
  if (thrown instanceof AdapterError && thrown.cause === undefined) return thrown
  const raw =
    thrown instanceof AdapterError
      ? thrown.details?.code
      : (thrown as { code?: unknown } | null)?.code
  const code = typeof raw === "string" && SAFE_CODE.test(raw) ? raw : undefined
  const name = thrown instanceof Error && SAFE_NAME.test(thrown.name) ? thrown.name : undefined
  const reason = code ? `: error ${code}` : name ? ` (${name})` : ""
  return new AdapterError(`The adapter's ${method}() failed${reason}`, {
    details: { method, ...(code ? { code } : {}) },
  })
}

function wrapAdapter(adapter: Adapter, logger: Logger): Adapter {
  const wrapped: Record<string, unknown> = {}
  // `in`-style lookup, not Object.entries: class-based adapters keep methods on the prototype.
  // A set: `deletePasswordHash` is both a password and an ownership method.
  const names = new Set([
    ...adapterMethods,
    ...accountApiAdapterMethods,
    ...passwordAdapterMethods,
    ...ownershipAdapterMethods,
    ...organizationAdapterMethods,
  ])
  for (const name of names) {
    const method = (adapter as Record<string, unknown>)[name]
    if (typeof method !== "function") continue
    wrapped[name] = async (...args: unknown[]) => {
      logger.debug(`adapter_${name}`)
      try {
        return await method.apply(adapter, args)
      } catch (thrown) {
        throw adapterFailure(name, thrown)
      }
    }
  }
  return Object.freeze(wrapped) as Adapter
}
