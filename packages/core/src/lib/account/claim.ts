/**
 * A proof of an address claims the row nobody had proved (docs/design/address-ownership.md,
 * rule 4). Whoever set the row up without proving the mailbox (a passkey sign-up, a provider
 * that does not vouch for the email, a password sign-up never confirmed) loses everything
 * Latchkey manages for it; the prover gets the row, with its user id, so app data keyed by the
 * id stays.
 *
 * Why this is safe: only a real proof of the mailbox reaches here (an email link, a sign-up
 * verification link, a reset link, a provider that vouches for the email), and whoever can
 * read the mailbox can already take any account of that address through a reset or an email
 * link. What the claim removes is what a squatter could have attached before the proof.
 *
 * Order, so a squatter racing the claim keeps nothing:
 * 1. everything the row holds is read, and the methods needed to remove it checked, before
 *    anything is removed: a row is never half-claimed for want of an adapter method;
 * 2. sessions are ended first, so no session can add a credential after the credentials are
 *    listed; then the credentials are removed; then sessions are ended again and the
 *    credentials listed again (a sign-in with a credential between steps 1 and 2 could have
 *    added one), up to {@link MAX_ROUNDS} times;
 * 3. the row is marked proven last: a claim that fails half-way leaves it unproven, and the
 *    next proof claims it again.
 */
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import { AccountNotLinked, MissingAdapterMethods, OAuthAccountNotLinked } from "../../errors.js"
import type { RequestContext } from "../context.js"
import { emitEvent } from "../events.js"
import { revocationBackend } from "../revocation/index.js"
import type { Awaitable } from "../types/awaitable.js"
import type { ClaimRemoved, ClaimVia } from "./claim-types.js"
import { markVerified } from "./email-ownership.js"

export type { AccountClaimedMessage, ClaimProof, ClaimRemoved, ClaimVia } from "./claim-types.js"

/** Rounds of "end sessions, remove credentials" before a claim that keeps finding new ones gives up. */
const MAX_ROUNDS = 3

export interface ClaimResult {
  /** The row, now proven (`emailVerified` set). Same id as before. */
  readonly user: AdapterUser
  readonly removed: ClaimRemoved
}

/** The password methods another module adds to `Adapter`; read structurally here. */
interface PasswordReader {
  getPasswordHash?(userId: string): Awaitable<string | null>
}

/** What the row holds that Latchkey can remove. */
interface Holdings {
  passkeys: AdapterAuthenticator[]
  accounts: AdapterAccount[]
  password: boolean
  twoFactor: boolean
}

/**
 * Claims `user`'s address for the prover: removes every Latchkey-managed credential, ends every
 * session, marks the row proven, fires `accountClaimed` and logs `account-claimed`. The caller
 * then signs the prover into the returned row.
 *
 * Refuses (nothing removed):
 * - `AccountNotLinked` (`OAuthAccountNotLinked` for a provider's proof) when the app keeps the
 *   row's password itself (`account.hasCredentials(user)`) and defines no `accountClaimed`
 *   handler that could clear it;
 * - `MissingAdapterMethods` when the row holds something the adapter has no method to remove
 *   (`details.methods` names them).
 */
export async function claimAddress(
  ctx: RequestContext,
  user: AdapterUser,
  via: ClaimVia,
): Promise<ClaimResult> {
  const { config, logger } = ctx
  const adapter = config.adapter!
  const Refusal = via.proof === "provider" ? OAuthAccountNotLinked : AccountNotLinked

  if (!config.events.accountClaimed && (await config.account.hasCredentials?.(user))) {
    throw new Refusal(
      "An account with this email exists whose password the app keeps, and its address was never confirmed: Latchkey cannot remove that password, so it does not let a proof of the address take the account over. Sign in with that password, or the app must handle events.accountClaimed (clearing its own password) to allow it",
      { details: { provider: via.provider, reason: "app-managed-credentials" } },
    )
  }

  let held = await holdings(adapter, user.id)
  const missing = missingMethods(ctx, held)
  if (missing.length > 0) {
    throw new MissingAdapterMethods(
      `Claiming an unproven account needs the adapter's ${missing.map((m) => `${m}()`).join(", ")}: without them the account's credentials cannot all be removed, so it is left as it is`,
      { details: { methods: missing, provider: via.provider } },
    )
  }

  const removed = { passkeys: 0, accounts: [] as string[], password: false, twoFactor: false }
  let sessions = true
  for (let round = 0; ; round++) {
    sessions = await endSessions(ctx, user.id)
    if (round > 0 && isEmpty(held)) break
    if (round === MAX_ROUNDS) {
      throw new Refusal(
        "New credentials kept appearing on the account while its address was being claimed: try the link again",
        { details: { provider: via.provider, reason: "claim-raced" } },
      )
    }
    await remove(adapter, user.id, held, removed)
    held = await holdings(adapter, user.id)
  }

  const proven = await markVerified(ctx, user)
  const result: ClaimRemoved = { ...removed, sessions }
  logger.warn("account-claimed", describe(proven.id, via, result))
  await emitEvent(config.events, logger, "accountClaimed", { user: proven, via, removed: result })
  return { user: proven, removed: result }
}

/** Everything removable the row holds now. Reads only. */
async function holdings(adapter: Adapter, userId: string): Promise<Holdings> {
  const password = (adapter as PasswordReader).getPasswordHash
  const [passkeys, accounts, hash, twoFactor] = await Promise.all([
    adapter.listAuthenticatorsByUserId?.(userId) ?? [],
    adapter.listAccountsByUserId?.(userId) ?? [],
    password?.call(adapter, userId) ?? null,
    adapter.getTwoFactor?.(userId) ?? null,
  ])
  return { passkeys, accounts, password: hash !== null, twoFactor: twoFactor !== null }
}

function isEmpty(held: Holdings): boolean {
  return (
    held.passkeys.length === 0 && held.accounts.length === 0 && !held.password && !held.twoFactor
  )
}

/**
 * The methods the claim lacks: a remover for each thing the row holds, and a lister for each
 * kind of thing the adapter can store but not list (what it holds is then unknown).
 */
function missingMethods(ctx: RequestContext, held: Holdings): string[] {
  const adapter = ctx.config.adapter!
  const has = (name: string) => typeof (adapter as Record<string, unknown>)[name] === "function"
  const needs: string[] = ["updateUser"]
  if (has("createAuthenticator") && !has("listAuthenticatorsByUserId")) {
    needs.push("listAuthenticatorsByUserId")
  }
  if (held.passkeys.length > 0) needs.push("deleteAuthenticator")
  if (has("linkAccount") && !has("listAccountsByUserId")) needs.push("listAccountsByUserId")
  if (held.accounts.length > 0) needs.push("unlinkAccount")
  if (has("setPasswordHash") && !has("getPasswordHash")) needs.push("getPasswordHash")
  if (held.password) needs.push("deletePasswordHash")
  if (has("setTwoFactor") && !has("getTwoFactor")) needs.push("getTwoFactor")
  if (held.twoFactor) needs.push("deleteTwoFactor")
  if (ctx.config.session.strategy === "database") needs.push("deleteUserSessions")
  return needs.filter((name) => !has(name))
}

/**
 * Ends every session of the user: database rows, and JWT sessions through the revocation
 * backend (the user's session version goes up, the session list is forgotten). `false` when
 * JWT sessions cannot be ended (`revocation: "off"`), logged once per process.
 */
async function endSessions(ctx: RequestContext, userId: string): Promise<boolean> {
  const { config } = ctx
  await config.adapter!.deleteUserSessions?.(userId)
  if (config.session.strategy !== "jwt") return true
  if (config.session.revocation === "off") {
    ctx.logger.warn("claim-sessions-not-ended")
    return false
  }
  await revocationBackend(config).revokeUserSessions(userId)
  return true
}

async function remove(
  adapter: Adapter,
  userId: string,
  held: Holdings,
  removed: { passkeys: number; accounts: string[]; password: boolean; twoFactor: boolean },
): Promise<void> {
  for (const passkey of held.passkeys) {
    if (await adapter.deleteAuthenticator!(userId, passkey.credentialID)) removed.passkeys++
  }
  for (const account of held.accounts) {
    const { provider, providerAccountId } = account
    await adapter.unlinkAccount!({ provider, providerAccountId })
    removed.accounts.push(provider)
  }
  // Also without `getPasswordHash` (whether there is one is then unknown): it says if it deleted one.
  if (adapter.deletePasswordHash && (await adapter.deletePasswordHash(userId))) {
    removed.password = true
  }
  if (held.twoFactor) {
    await adapter.deleteTwoFactor!(userId)
    await adapter.replaceRecoveryCodes?.(userId, [])
    removed.twoFactor = true
  }
}

/** The log line's detail: ids and counts, never the address or a secret. */
function describe(userId: string, via: ClaimVia, removed: ClaimRemoved): string {
  const parts = [
    `${removed.passkeys} passkey(s)`,
    `linked accounts [${removed.accounts.join(", ")}]`,
    removed.password ? "the password" : "no password",
    removed.twoFactor ? "two-factor" : "no two-factor",
  ]
  const sessions = removed.sessions ? "sessions ended" : "JWT sessions NOT ended"
  return `(user ${userId}, proved by ${via.proof} of ${via.provider}: removed ${parts.join(", ")}; ${sessions})`
}
