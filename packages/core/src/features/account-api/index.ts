/**
 * The account API: `GET {basePath}/account` (what the signed-in user holds: passkeys, linked
 * accounts, sessions, and each feature's section) and `POST {basePath}/account/<change>` (the
 * changes the kernel and the features declare in `Feature.account`).
 *
 * Brought by `account: Account()` (`@latchkey/core/account`), by the providers and options whose
 * changes are account changes (`Password()`, `Passkey()`, `TwoFactor()`), and always by the Qwik
 * bindings, whose account actions call it. An app with GitHub alone does not carry it.
 */
import type { Feature } from "../../kernel/feature/feature.js"
import { getAccountAction, postAccountAction } from "./routes.js"

export const accountApiFeature: Feature = {
  id: "account-api",
  routes: { account: { GET: getAccountAction, POST: postAccountAction } },
}
