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
 * 2. the account's state moves first (docs/design/pending-grants.md): every session ends and
 *    every pending grant of the row (an address change, a reset or sign-up link, a second-factor
 *    step) is void, so nothing can add a credential after the credentials are listed; then the
 *    credentials are removed; then the state moves again and the credentials are listed again (a
 *    sign-in with a credential between steps 1 and 2 could have added one), up to
 *    {@link MAX_ROUNDS} times;
 * 3. the row is marked proven last: a claim that fails half-way leaves it unproven, and the
 *    next proof claims it again.
 */

import { AccountNotLinked, MissingAdapterMethods, OAuthAccountNotLinked } from "../errors/errors.js"
import { emitEvent } from "../events/emit.js"
import { moveAccountState } from "../grants/account-state.js"
import type { RequestContext } from "../http/context.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterUser,
} from "../types/adapters.js"
import type { Awaitable } from "../types/awaitable.js"
import type { ClaimRemoved, ClaimVia } from "../types/claim.js"
import { markVerified } from "./email-ownership.js"

export type { AccountClaimedMessage, ClaimProof, ClaimRemoved, ClaimVia } from "../types/claim.js"

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
  /** The passkeys that can still sign in. */
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
  const Refusal = via.proof === "provider" ? OAuthAccountNotLinked : AccountNotLinked

  if (!config.events.accountClaimed && (await config.account.hasCredentials?.(user))) {
    throw new Refusal(
      "An account with this email exists whose password the app keeps, and its address was never confirmed: Latchkey cannot remove that password, so it does not let a proof of the address take the account over. Sign in with that password, or the app must handle events.accountClaimed (clearing its own password) to allow it",
      { details: { provider: via.provider, reason: "app-managed-credentials" } },
    )
  }

  let held = await holdings(ctx, user.id)
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
    await remove(ctx, user.id, held, removed)
    held = await holdings(ctx, user.id)
  }

  const proven = await markVerified(ctx, user)
  const result: ClaimRemoved = { ...removed, sessions }
  logger.warn("account-claimed", describe(proven.id, via, result))
  await emitEvent(config.events, logger, "accountClaimed", { user: proven, via, removed: result })
  return { user: proven, removed: result }
}

/** Everything removable the row holds now. Reads only. */
async function holdings(ctx: RequestContext, userId: string): Promise<Holdings> {
  const adapter = ctx.config.adapter!
  const password = (adapter as PasswordReader).getPasswordHash
  const [passkeys, accounts, hash, twoFactor] = await Promise.all([
    livePasskeys(ctx, userId),
    adapter.listAccountsByUserId?.(userId) ?? [],
    password?.call(adapter, userId) ?? null,
    adapter.getTwoFactor?.(userId) ?? null,
  ])
  return { passkeys, accounts, password: hash !== null, twoFactor: twoFactor !== null }
}

/** The ids of the configured passkey providers: a passkey's account row is under one of them. */
function passkeyProviders(ctx: RequestContext): string[] {
  return ctx.config.providers.filter((p) => p.type === "webauthn").map((p) => p.id)
}

/**
 * The row's passkeys that can sign in. A passkey signs in only through its `webauthn` account
 * row (`webauthn/callback.ts`), so with an adapter that cannot delete authenticators (an Auth.js
 * adapter) a claim unlinks that row instead, and the authenticator left behind is no way in.
 */
async function livePasskeys(ctx: RequestContext, userId: string): Promise<AdapterAuthenticator[]> {
  const adapter = ctx.config.adapter!
  const all = (await adapter.listAuthenticatorsByUserId?.(userId)) ?? []
  if (adapter.deleteAuthenticator || !adapter.getAccount || all.length === 0) return all
  const providers = passkeyProviders(ctx)
  const live = await Promise.all(
    all.map(async (passkey) => {
      for (const provider of providers) {
        const row = await adapter.getAccount!(passkey.credentialID, provider)
        if (row?.userId === userId) return true
      }
      return false
    }),
  )
  return all.filter((_, i) => live[i])
}

function isEmpty(held: Holdings): boolean {
  return (
    held.passkeys.length === 0 && held.accounts.length === 0 && !held.password && !held.twoFactor
  )
}

/**
 * The methods the claim lacks: a remover for each thing the row holds, and a lister for each
 * kind of thing the adapter can store but not list (what it holds is then unknown). Sessions
 * need nothing: the state move ends them (rows through the adapter, or the stamp their tokens
 * carry).
 */
function missingMethods(ctx: RequestContext, held: Holdings): string[] {
  const adapter = ctx.config.adapter!
  const has = (name: string) => typeof (adapter as Record<string, unknown>)[name] === "function"
  const needs: string[] = ["updateUser"]
  if (has("createAuthenticator") && !has("listAuthenticatorsByUserId")) {
    needs.push("listAuthenticatorsByUserId")
  }
  if (held.passkeys.length > 0 && !has("deleteAuthenticator")) {
    needs.push("getAccount", "unlinkAccount")
  }
  if (
    has("linkAccount") &&
    !has("listAccountsByUserId") &&
    linksProviderAccounts(ctx.config.providers)
  ) {
    needs.push("listAccountsByUserId")
  }
  if (held.accounts.length > 0) needs.push("unlinkAccount")
  if (has("setPasswordHash") && !has("getPasswordHash")) needs.push("getPasswordHash")
  if (held.password) needs.push("deletePasswordHash")
  if (has("setTwoFactor") && !has("getTwoFactor")) needs.push("getTwoFactor")
  if (held.twoFactor) needs.push("deleteTwoFactor")
  return [...new Set(needs)].filter((name) => !has(name))
}

/** Whether the app signs in with OAuth/OIDC providers, whose account rows a claim must find. */
export function linksProviderAccounts(providers: readonly { type: string }[]): boolean {
  return providers.some((p) => p.type === "oauth" || p.type === "oidc")
}

/**
 * Moves the account's state (`claim`): every session ends and every pending grant of the row is
 * void. `false` when JWT sessions cannot be ended (`revocation: "off"`), logged once per
 * process; the grants are void all the same.
 */
async function endSessions(ctx: RequestContext, userId: string): Promise<boolean> {
  await moveAccountState(ctx.config, userId, "claim")
  const { session } = ctx.config
  if (session.strategy === "jwt" && session.revocation === "off") {
    ctx.logger.warn("claim-sessions-not-ended")
    return false
  }
  return true
}

async function remove(
  ctx: RequestContext,
  userId: string,
  held: Holdings,
  removed: { passkeys: number; accounts: string[]; password: boolean; twoFactor: boolean },
): Promise<void> {
  const adapter = ctx.config.adapter!
  for (const passkey of held.passkeys) {
    if (await removePasskey(ctx, adapter, userId, passkey)) removed.passkeys++
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

/** Deletes the passkey, or (an adapter that cannot) unlinks the account row it signs in through. */
async function removePasskey(
  ctx: RequestContext,
  adapter: Adapter,
  userId: string,
  passkey: AdapterAuthenticator,
): Promise<boolean> {
  if (adapter.deleteAuthenticator) return adapter.deleteAuthenticator(userId, passkey.credentialID)
  let unlinked = false
  for (const provider of passkeyProviders(ctx)) {
    const row = await adapter.getAccount!(passkey.credentialID, provider)
    if (row?.userId !== userId) continue
    await adapter.unlinkAccount!({ provider, providerAccountId: passkey.credentialID })
    unlinked = true
  }
  return unlinked
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
