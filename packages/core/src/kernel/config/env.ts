/**
 * Environment → configuration defaults, for apps and framework bindings. Like Auth.js,
 * `setEnvDefaults(env, config)` fills `config` in place (and returns it), so the usual
 * `setEnvDefaults(process.env, config); Auth(request, config)` works. Only top-level fields are
 * assigned: the caller's `providers` array and provider objects are never modified (a new array
 * replaces it when a provider gains a value), so a shallow copy of a config is enough to keep
 * the original as it was.
 */

import type { EnvObject } from "../runtime/process-env.js"
import type { ProviderConfig } from "../types/provider.js"
import type { AuthConfig } from "./auth-config.js"

// Public here (`@latchkey/core/env`); defined below the configuration types so that the token
// module (`jwt.ts`, which the configuration types name) can read the environment too.
export { type EnvObject, readProcessEnv } from "../runtime/process-env.js"

/**
 * A boolean environment value, strictly: `true`/`1`/`yes`/`on` and `false`/`0`/`no`/`off`/``
 * (any case). Anything else is `undefined` (ignored). Auth.js treats any non-empty string,
 * `"false"` included, as true.
 */
export function parseBooleanEnv(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const v = value.trim().toLowerCase()
  if (v === "true" || v === "1" || v === "yes" || v === "on") return true
  if (v === "false" || v === "0" || v === "no" || v === "off" || v === "") return false
  return undefined
}

/**
 * Fill what the config leaves unset from `env`, in place; returns `config`. Values already set
 * (by the app or an earlier call) win, so calling it again on every request changes nothing.
 *
 * - `secret` (only when the config has none): `AUTH_SECRET` plus rotation secrets
 *   `AUTH_SECRET_1..3`, in the order Auth.js uses: `[AUTH_SECRET_3, AUTH_SECRET_2,
 *   AUTH_SECRET_1, AUTH_SECRET]`. The first one present encrypts; all decrypt. To rotate, put
 *   the new secret in the next free `AUTH_SECRET_<n>` (higher n = newer) and drop the oldest
 *   once every session issued with it has expired.
 * - `url` ← `AUTH_URL`; `basePath` ← its path when the config sets none and the path is not `/`.
 * - `trustHost` ← `AUTH_TRUST_HOST` parsed strictly (`"false"` is false); when that is unset,
 *   `true` where the host is set safely, as Auth.js infers it: `AUTH_URL` set, `VERCEL` or
 *   `CF_PAGES` true, or `NODE_ENV=development`.
 * - `redirectProxyUrl` ← `AUTH_REDIRECT_PROXY_URL`.
 * - OAuth/OIDC providers: `clientId` ← `AUTH_<ID>_ID`, `clientSecret` ← `AUTH_<ID>_SECRET`,
 *   `issuer` ← `AUTH_<ID>_ISSUER`; email providers: `apiKey` ← `AUTH_<ID>_KEY` (`<ID>` = the
 *   provider id upper-cased, `-` → `_`). Provider factories are called once with those values.
 */
export function setEnvDefaults<C extends AuthConfig>(env: EnvObject, config: C): C & AuthConfig {
  return Object.assign(config, envDefaults(env, config))
}

/** The fields `setEnvDefaults` would set, and only those. */
function envDefaults(env: EnvObject, config: AuthConfig): Partial<AuthConfig> {
  const changes: Partial<AuthConfig> = {}
  const authUrl = env.AUTH_URL || undefined
  const url = config.url ?? authUrl
  if (config.url === undefined && authUrl !== undefined) changes.url = authUrl
  if (config.basePath === undefined && url !== undefined && URL.canParse(url)) {
    const path = new URL(url).pathname.replace(/\/+$/, "")
    if (path) changes.basePath = path
  }

  const hasSecret = Array.isArray(config.secret) ? config.secret.length > 0 : Boolean(config.secret)
  if (!hasSecret) {
    const secrets = [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET]
    const present = secrets.filter((s): s is string => typeof s === "string" && s.length > 0)
    if (present.length > 0) changes.secret = present
  }

  if (config.trustHost === undefined) {
    const trust = parseBooleanEnv(env.AUTH_TRUST_HOST) ?? (hostSetSafely(env) || undefined)
    if (trust !== undefined) changes.trustHost = trust
  }
  const proxy = env.AUTH_REDIRECT_PROXY_URL || undefined
  if (config.redirectProxyUrl === undefined && proxy !== undefined) changes.redirectProxyUrl = proxy

  if (Array.isArray(config.providers)) {
    const providers: AuthConfig["providers"] = config.providers.map((provider) =>
      withProviderEnv(provider, env),
    )
    if (providers.some((p, i) => p !== config.providers[i])) changes.providers = providers
  }
  return changes
}

/**
 * Platforms where the Host header is set by the platform itself, and local development: the
 * cases Auth.js trusts the host without `AUTH_TRUST_HOST`.
 */
function hostSetSafely(env: EnvObject): boolean {
  return (
    Boolean(env.AUTH_URL) ||
    parseBooleanEnv(env.VERCEL) === true ||
    parseBooleanEnv(env.CF_PAGES) === true ||
    env.NODE_ENV === "development"
  )
}

/** `github` → `GITHUB`, `azure-ad` → `AZURE_AD`: the `<ID>` of `AUTH_<ID>_SECRET`. */
export function envKey(id: string): string {
  return id.toUpperCase().replace(/-/g, "_")
}

function withProviderEnv(provider: AuthConfig["providers"][number], env: EnvObject) {
  if (typeof provider === "function") {
    const factory = provider as unknown as (options?: Record<string, unknown>) => ProviderConfig
    const id = factory({}).id
    const ID = envKey(id)
    const made = factory({
      clientId: env[`AUTH_${ID}_ID`],
      clientSecret: env[`AUTH_${ID}_SECRET`],
      issuer: env[`AUTH_${ID}_ISSUER`],
      apiKey: env[`AUTH_${ID}_KEY`],
    })
    return fillFromEnv(made, env)
  }
  return fillFromEnv(provider, env)
}

/** The provider with its unset env-backed fields filled; the same object when none is. */
function fillFromEnv(provider: ProviderConfig, env: EnvObject): ProviderConfig {
  if (!provider || typeof provider !== "object" || typeof provider.id !== "string") return provider
  const ID = envKey(provider.id)
  const fields: Record<string, string> =
    provider.type === "oauth" || provider.type === "oidc"
      ? { clientId: "ID", clientSecret: "SECRET", issuer: "ISSUER" }
      : provider.type === "email"
        ? { apiKey: "KEY" }
        : {}
  const filled: Record<string, string> = {}
  for (const [field, suffix] of Object.entries(fields)) {
    const value = env[`AUTH_${ID}_${suffix}`]
    if (
      (provider as unknown as Record<string, unknown>)[field] === undefined &&
      value !== undefined
    ) {
      filled[field] = value
    }
  }
  return Object.keys(filled).length > 0 ? ({ ...provider, ...filled } as ProviderConfig) : provider
}
