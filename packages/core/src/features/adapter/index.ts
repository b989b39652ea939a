/**
 * The adapter feature: what Latchkey does with the rows of an adapter. A verified sign-in finds,
 * links, creates or claims its user among them (`login.ts`); database sessions are its rows
 * (`database-session.ts` reads them, `issue-session.ts` writes them); the configuration is
 * checked for what a claim needs (`checks.ts`). An adapter brings it: Latchkey's
 * adapters are made with it, and an Auth.js adapter (or any object of the contract's methods)
 * is given it by `withAdapterFeature` (or by `withPlainProviders`, as the Qwik bindings do). An
 * app without an adapter, whose sessions are JWTs of the provider's user, bundles none of it.
 */

import { FEATURE, type Feature, featureOf } from "../../kernel/feature/feature.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import { checkClaimMethods } from "./checks.js"
import { readDatabaseSession } from "./database-session.js"
import { issueDatabaseSession } from "./issue-session.js"
import { resolveAdapterLogin } from "./login.js"

export const adapterFeature: Feature = {
  id: "adapter",
  // A claim runs only with an adapter (through this feature, or a password account's link).
  logTexts: {
    "account-claimed":
      "A proof of an email address (email link, verification or reset link, or a provider that vouches for it) met an account whose address was never proved, and claimed it: its passkeys, linked accounts, password and two-factor were removed and its sessions ended; the prover is signed in with the same user id. Expected when someone had set up an account for an address they do not own; clear what the app keeps for the user in events.accountClaimed.",
    "claim-sessions-not-ended":
      'An address claim could not end the earlier JWT sessions of the account, because session.revocation is "off": their cookies work until they expire. Set session.revocation to "reissue" or "strict".',
    "claim-needs-methods":
      "A proof of an address (an email link, a password reset or verification link) claims an account nobody proved by removing what was attached to it; this adapter lacks methods for that, so such a proof is refused (MissingAdapterMethods) where the account has a linked provider account or a passkey. Implement the methods below (an Auth.js adapter has none of listAccountsByUserId), or use a Latchkey adapter (@latchkey/adapter-postgres).",
  },
  check: checkClaimMethods,
  resolveLogin: resolveAdapterLogin,
  databaseSessions: { read: readDatabaseSession, issue: issueDatabaseSession },
}

/**
 * `adapter`, carrying the code that serves it. The adapter object itself is marked (an own,
 * enumerable property, so `{ ...adapter, override }` keeps it): a copy would lose the methods a
 * class-based adapter keeps on its prototype. A frozen adapter is copied, prototype and all.
 */
export function withAdapterFeature<A extends Adapter>(adapter: A): A {
  if (featureOf(adapter) === adapterFeature) return adapter
  if (Object.isExtensible(adapter)) {
    ;(adapter as Record<symbol, unknown>)[FEATURE] = adapterFeature
    return adapter
  }
  const copy = Object.create(Object.getPrototypeOf(adapter)) as A
  return Object.assign(copy, adapter, { [FEATURE]: adapterFeature })
}
