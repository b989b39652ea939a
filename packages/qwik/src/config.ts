/**
 * Turning the user's config QRL into the config the core receives, cheaply. The core caches its
 * resolved options per config object, so handing it the same object on every request matters:
 * we memoise the env-defaulted config per user config object and per environment values. The QRL
 * itself runs at most once per request (the promise is parked in `sharedMap`).
 */

import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { withAccountApi } from "@latchkey/core/account"
import { setEnvDefaults as coreSetEnvDefaults } from "@latchkey/core/env"
import { AuthError, InvalidConfiguration } from "@latchkey/core/errors"
import { withPlainProviders } from "@latchkey/core/plain-providers"
import { envKeys } from "./env.js"
import { CONFIG_KEY } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"

/** What `QwikAuth$` receives: a function of the request event returning the config. @public */
export type QwikAuthConfigFn<C extends QwikAuthConfig = QwikAuthConfig> = (
  event: RequestEventCommon,
) => C | PromiseLike<C>

const memo = new WeakMap<
  QwikAuthConfig,
  { values: (string | undefined)[]; config: QwikAuthConfig }
>()

function withEnvDefaults(event: RequestEventCommon, user: QwikAuthConfig): QwikAuthConfig {
  // Qwik builds a new `env` per request, so the memo is keyed by the values themselves.
  const keys = envKeys(user)
  const values = keys.map((key) => event.env.get(key))
  const hit = memo.get(user)
  if (hit && sameValues(hit.values, values)) return hit.config
  const env = Object.fromEntries(keys.map((key, i) => [key, values[i]]))
  // The core fills in place: a copy per set of env values keeps the user's object untouched.
  const config = coreSetEnvDefaults(env, { ...user })
  memo.set(user, { values, config })
  return config
}

function sameValues(a: readonly (string | undefined)[], b: readonly (string | undefined)[]) {
  return a.length === b.length && a.every((value, i) => value === b[i])
}

/** The config for this request: the QRL runs once, the result is reused by every handler. */
export function resolveConfig<C extends QwikAuthConfig>(
  event: RequestEventCommon,
  configQrl: QRL<QwikAuthConfigFn<C>> | undefined,
): Promise<QwikAuthConfig> {
  const parked = event.sharedMap.get(CONFIG_KEY) as Promise<QwikAuthConfig> | undefined
  if (parked) return parked
  if (configQrl === undefined) {
    // Only reachable if the module that calls `QwikAuth$` never ran on this server.
    return Promise.reject(
      new InvalidConfiguration([new AuthError("QwikAuth$() has not run on the server")]),
    )
  }
  // Auth.js-style plain provider objects (and plain `twoFactor` options) get their feature here,
  // and the account API is always on: the binding's account actions call it.
  const pending = Promise.resolve(configQrl(event)).then((user) =>
    withPlainProviders(withAccountApi(withEnvDefaults(event, user))),
  )
  event.sharedMap.set(CONFIG_KEY, pending)
  return pending
}

/** `basePath` without a trailing slash; `/auth` unless configured. */
export function basePathOf(config: QwikAuthConfig): string {
  const base = config.basePath ?? "/auth"
  return base.endsWith("/") ? base.slice(0, -1) : base
}
