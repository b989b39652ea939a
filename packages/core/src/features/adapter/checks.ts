/** The adapter feature's configuration check, run once per config: what a claim needs of the adapter. */

import type { ConfigReport, FeatureCheckInput } from "../../kernel/feature/feature.js"

/**
 * A proof of an address (an email link, a password account's link) claims a row nobody proved
 * (docs/design/address-ownership.md), removing what a squatter attached. Through an adapter
 * without some optional methods a claim is refused: named at start-up, not at the first claim.
 * Passkeys need `deleteAuthenticator` or, as on an Auth.js adapter, `unlinkAccount` (a passkey
 * signs in through its account row); linked OAuth/OIDC accounts need `listAccountsByUserId`,
 * which no Auth.js adapter has.
 */
export function checkClaimMethods(input: FeatureCheckInput, report: ConfigReport): void {
  const { adapter } = input.config
  if (!adapter) return
  const has = (name: string) => typeof (adapter as Record<string, unknown>)[name] === "function"
  const proofs = input.providers.some(
    (p) => p.type === "email" || (p as { passwordAccount?: unknown }).passwordAccount,
  )
  if (!proofs) return
  const needs = new Set<string>()
  const kinds = new Set(input.providers.map((p) => p.type))
  if (kinds.has("webauthn") && !has("deleteAuthenticator") && !has("unlinkAccount")) {
    needs.add("unlinkAccount")
  }
  if (kinds.has("oauth") || kinds.has("oidc")) {
    for (const m of ["listAccountsByUserId", "unlinkAccount"]) if (!has(m)) needs.add(m)
  }
  if (needs.size > 0) {
    report.warnings.push({
      code: "claim-needs-methods",
      detail: `(the adapter lacks: ${[...needs].join(", ")})`,
    })
  }
}
