/**
 * Environment defaults from Qwik's `EnvGetter`. The core's `setEnvDefaults` takes a plain record
 * (like `process.env`); Qwik only offers `env.get(key)`, and on edge platforms there is no
 * `process.env` at all. So we read exactly the keys the core looks at and hand it a record.
 */

import type { EnvGetter } from "@builder.io/qwik-city/middleware/request-handler"
import { setEnvDefaults as coreSetEnvDefaults } from "@latchkey/core"
import type { QwikAuthConfig } from "./types.js"

const globalKeys = [
  "AUTH_URL",
  "AUTH_SECRET",
  "AUTH_SECRET_1",
  "AUTH_SECRET_2",
  "AUTH_SECRET_3",
  "AUTH_REDIRECT_PROXY_URL",
  "AUTH_TRUST_HOST",
  "VERCEL",
  "CF_PAGES",
  "NODE_ENV",
] as const

/** `github` → `GITHUB`, `azure-ad` → `AZURE_AD`, as the core names provider variables. */
function envName(providerId: string): string {
  return providerId.toUpperCase().replace(/-/g, "_")
}

/** The env keys a config reads; computed once per config object (provider factories run once). */
const keysByConfig = new WeakMap<QwikAuthConfig, readonly string[]>()

function envKeys(config: QwikAuthConfig): readonly string[] {
  let keys = keysByConfig.get(config)
  if (!keys) {
    const ids = config.providers.map((p) => (typeof p === "function" ? p() : p).id)
    const suffixes = ["ID", "SECRET", "ISSUER", "KEY"]
    keys = [...globalKeys, ...ids.flatMap((id) => suffixes.map((s) => `AUTH_${envName(id)}_${s}`))]
    keysByConfig.set(config, keys)
  }
  return keys
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
 * as the core does from `process.env`. Returns a new config; the argument is not modified, the
 * configured `basePath` is respected and `skipCSRFCheck` is never set.
 *
 * @public
 */
export function setEnvDefaults(env: EnvGetter, config: QwikAuthConfig): QwikAuthConfig {
  return coreSetEnvDefaults(readAuthEnv(env, config), config)
}
