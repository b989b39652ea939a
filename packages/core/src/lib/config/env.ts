/**
 * Environment → configuration defaults, for framework bindings. Returns a new config and never
 * touches the caller's object (Auth.js mutates it in place).
 */
import type { ProviderConfig } from "../../providers/index.js"
import type { AuthConfig } from "../../types.js"

export type EnvObject = Record<string, string | undefined>

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

/** The process environment when there is one (Node, Bun, Deno's compat), else `{}`. */
export function readProcessEnv(): EnvObject {
  return (globalThis as { process?: { env?: EnvObject } }).process?.env ?? {}
}

/**
 * Fill what the config leaves unset from `env`:
 *
 * - `secret` (only when the config has none): `AUTH_SECRET` plus rotation secrets
 *   `AUTH_SECRET_1..3`, in the order Auth.js uses: `[AUTH_SECRET_3, AUTH_SECRET_2,
 *   AUTH_SECRET_1, AUTH_SECRET]`. The first one present encrypts; all decrypt. To rotate, put
 *   the new secret in the next free `AUTH_SECRET_<n>` (higher n = newer) and drop the oldest
 *   once every session issued with it has expired.
 * - `url` ← `AUTH_URL`; `basePath` ← its path when the config sets none and the path is not `/`.
 * - `trustHost` ← `AUTH_TRUST_HOST` parsed strictly (`"false"` is false).
 * - `redirectProxyUrl` ← `AUTH_REDIRECT_PROXY_URL`.
 * - OAuth/OIDC providers: `clientId` ← `AUTH_<ID>_ID`, `clientSecret` ← `AUTH_<ID>_SECRET`,
 *   `issuer` ← `AUTH_<ID>_ISSUER`; email providers: `apiKey` ← `AUTH_<ID>_KEY` (`<ID>` = the
 *   provider id upper-cased, `-` → `_`). Provider factories are called once with those values.
 */
export function setEnvDefaults(env: EnvObject, config: AuthConfig): AuthConfig {
  const next: AuthConfig = { ...config }
  const authUrl = env.AUTH_URL || undefined

  if (next.url === undefined && authUrl !== undefined) next.url = authUrl
  if (next.basePath === undefined && next.url !== undefined && URL.canParse(next.url)) {
    const path = new URL(next.url).pathname.replace(/\/+$/, "")
    if (path) next.basePath = path
  }

  const hasSecret = Array.isArray(next.secret) ? next.secret.length > 0 : Boolean(next.secret)
  if (!hasSecret) {
    const secrets = [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET]
    const present = secrets.filter((s): s is string => typeof s === "string" && s.length > 0)
    if (present.length > 0) next.secret = present
  }

  if (next.trustHost === undefined) {
    const trust = parseBooleanEnv(env.AUTH_TRUST_HOST)
    if (trust !== undefined) next.trustHost = trust
  }
  next.redirectProxyUrl ??= env.AUTH_REDIRECT_PROXY_URL || undefined

  if (Array.isArray(config.providers)) {
    next.providers = config.providers.map((provider) => withProviderEnv(provider, env))
  }
  return next
}

function envKey(id: string): string {
  return id.toUpperCase().replace(/-/g, "_")
}

function withProviderEnv(provider: AuthConfig["providers"][number], env: EnvObject) {
  if (typeof provider === "function") {
    const factory = provider as (options?: Record<string, unknown>) => ProviderConfig
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

function fillFromEnv(provider: ProviderConfig, env: EnvObject): ProviderConfig {
  if (!provider || typeof provider !== "object" || typeof provider.id !== "string") return provider
  const ID = envKey(provider.id)
  if (provider.type === "oauth" || provider.type === "oidc") {
    return {
      ...provider,
      clientId: provider.clientId ?? env[`AUTH_${ID}_ID`],
      clientSecret: provider.clientSecret ?? env[`AUTH_${ID}_SECRET`],
      issuer: provider.issuer ?? env[`AUTH_${ID}_ISSUER`],
    }
  }
  if (provider.type === "email") {
    return { ...provider, apiKey: provider.apiKey ?? env[`AUTH_${ID}_KEY`] }
  }
  return provider
}
