/**
 * Environment defaults from Qwik's `EnvGetter`. The core's `setEnvDefaults` takes a plain record
 * (like `process.env`); Qwik only offers `env.get(key)`, and on edge platforms there is no
 * `process.env` at all. So we read exactly the keys the core looks at and hand it a record.
 */

import type { EnvGetter } from "@builder.io/qwik-city/middleware/request-handler"
// The dependency-free entry: this module is part of what the browser loads of the binding.
import { setEnvDefaults as coreSetEnvDefaults } from "@latchkey/core/env"
import type { QwikAuthConfig } from "./types.js"

/** `github` → `GITHUB`, `azure-ad` → `AZURE_AD`, as the core names provider variables. */
function envName(providerId: string): string {
  return providerId.toUpperCase().replace(/-/g, "_")
}

/** The provider variables the core's env defaulting reads, by provider type. */
const providerSuffixes: Record<string, readonly string[]> = {
  oauth: ["ID", "SECRET", "ISSUER"],
  oidc: ["ID", "SECRET", "ISSUER"],
  email: ["KEY"],
  credentials: [],
  webauthn: [],
}
const ALL_SUFFIXES = ["ID", "SECRET", "ISSUER", "KEY"]

/**
 * The env keys this config can still take a value from: settings the config already has, and
 * credentials providers, read nothing. Every page request reads these, so fewer is cheaper.
 * Computed once per config object (provider factories are called once here).
 */
const keysByConfig = new WeakMap<QwikAuthConfig, readonly string[]>()

export function envKeys(config: QwikAuthConfig): readonly string[] {
  let keys = keysByConfig.get(config)
  if (keys) return keys
  const list = ["AUTH_URL"]
  if (!config.secret || config.secret.length === 0) {
    list.push("AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3")
  }
  // The core infers trustHost from these when AUTH_TRUST_HOST is unset.
  if (config.trustHost === undefined) list.push("AUTH_TRUST_HOST", "VERCEL", "CF_PAGES", "NODE_ENV")
  if (config.redirectProxyUrl === undefined) list.push("AUTH_REDIRECT_PROXY_URL")
  for (const provider of config.providers) {
    const { id, type } = describeProvider(provider)
    for (const suffix of providerSuffixes[type] ?? ALL_SUFFIXES) {
      list.push(`AUTH_${envName(id)}_${suffix}`)
    }
  }
  keys = list
  keysByConfig.set(config, keys)
  return keys
}

/** A provider's id and type; for a factory that cannot be called bare, read every variable. */
function describeProvider(provider: QwikAuthConfig["providers"][number]): {
  id: string
  type: string
} {
  if (typeof provider !== "function") return provider
  try {
    return provider()
  } catch {
    return { id: provider.name.toLowerCase(), type: "unknown" }
  }
}

/** The subset of the environment the core's env defaulting reads, as a plain record. */
export function readAuthEnv(
  env: EnvGetter,
  config: QwikAuthConfig,
): Record<string, string | undefined> {
  const record: Record<string, string | undefined> = {}
  for (const key of envKeys(config)) record[key] = env.get(key)
  return record
}

/**
 * Fill `secret`, `trustHost`, `basePath`, provider client ids/secrets… from Qwik's `env`, exactly
 * as the core does from `process.env`: in place, and returns it (as Auth.js does). The
 * configured `basePath` is respected and `skipCSRFCheck` is never set.
 *
 * @public
 */
export function setEnvDefaults(env: EnvGetter, config: QwikAuthConfig): QwikAuthConfig {
  return coreSetEnvDefaults(readAuthEnv(env, config), config)
}
