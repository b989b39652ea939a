/**
 * The account API (`GET /auth/account`, `POST /auth/account/<change>`): `account: Account()` in
 * the configuration brings it, with the account options Auth.js apps do not have.
 *
 * ```ts
 * import { Account } from "@latchkey/core/account"
 *
 * Auth(request, { providers: [GitHub], adapter, account: Account() })
 * ```
 *
 * `Password()`, `Passkey()` and `TwoFactor()` bring it on their own, and the Qwik bindings always
 * do; a plain `account: { … }` object sets the options without it.
 *
 * @module @latchkey/core/account
 */
import { accountApiFeature } from "./features/account-api/index.js"
import { featureOf, withFeature } from "./kernel/feature/feature.js"
import type { AccountOptions } from "./kernel/types/account-options.js"

export type { DeviceSession } from "./features/account-api/device-sessions.js"
export type { AccountOp } from "./features/account-api/operations.js"
export type { AccountView, LinkedAccountView, PasskeyView } from "./features/account-api/view.js"
export type { EmailLinkMethod } from "./kernel/account/sign-in-methods.js"
export type { AccountOptions }

/** The `account` option, with the account API that serves it. */
export function Account(options: AccountOptions = {}): AccountOptions {
  return withFeature(options, accountApiFeature)
}

const withApi = new WeakMap<object, object>()

/**
 * `config` with the account API on (its `account` options, if any, kept): what the Qwik
 * bindings do, since their account actions call it. The same object back for the same input.
 */
export function withAccountApi<C extends { account?: AccountOptions }>(config: C): C {
  if (featureOf(config.account) === accountApiFeature) return config
  const known = withApi.get(config)
  if (known) return known as C
  const made = { ...config, account: Account(config.account) }
  withApi.set(config, made)
  return made
}
