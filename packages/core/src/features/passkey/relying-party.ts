/**
 * The relying party of a ceremony: from the provider's `relayingParty`, else from the request's
 * resolved origin (never from a raw Host header: `resolveOrigin` already applied `AUTH_URL` and
 * `trustHost`). Options use the first value of each list; verification accepts every one.
 */
import type { WebAuthnConfig } from "./provider-config.js"

export interface RelyingParty {
  /** For the options: the first id and name. */
  id: string
  name: string
  /** For verification: every accepted rpID and origin. */
  ids: string[]
  origins: string[]
}

function list(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return []
  return (typeof value === "string" ? [value] : [...value]).filter((v) => v !== "")
}

export function relyingParty(provider: WebAuthnConfig, origin: string): RelyingParty {
  const url = new URL(origin)
  const configured = provider.relayingParty ?? {}
  const ids = list(configured.id)
  const names = list(configured.name)
  const origins = list(configured.origin)
  if (ids.length === 0) ids.push(url.hostname)
  if (origins.length === 0) origins.push(url.origin)
  return { id: ids[0]!, name: names[0] ?? url.host, ids, origins }
}
