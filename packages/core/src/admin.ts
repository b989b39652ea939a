/**
 * Operator functions, for a support desk or a scheduled clean-up (and `npx latchkey`): remove
 * accounts nobody proved that have sat unused, end every session of a user, reset a user's
 * two-factor, list an organization's members, transfer its ownership, remove a user from every
 * organization. Each takes the app's config (the same object given to `Auth()`), so sessions
 * are ended where the app keeps them (database rows, the revocation store).
 *
 * ```ts
 * import { listUnprovenUsers, removeUnprovenUsers } from "@latchkey/core/admin"
 * const thirtyDaysAgo = new Date(Date.now() - 30 * 86_400_000)
 * await removeUnprovenUsers(authConfig, { olderThan: thirtyDaysAgo, limit: 500 })
 * ```
 *
 * @module @latchkey/core/admin
 */

import { orgContext } from "./features/organizations/context.js"
import { transferOwnership } from "./features/organizations/members.js"
import {
  membersOf,
  type RemovedFromOrganizations,
  removeFromAll,
} from "./features/organizations/operator.js"
import { type ResolvedConfig, resolveConfig } from "./kernel/config/resolve.js"
import { InvalidParameter, MissingAdapterMethods } from "./kernel/errors/errors.js"
import { featuresOf } from "./kernel/feature/feature.js"
import { moveAccountState } from "./kernel/grants/account-state.js"
import { endUserSessions } from "./kernel/grants/end-sessions.js"
import type { AdapterUser } from "./kernel/types/adapters.js"
import { isDate } from "./kernel/types/adapters.js"
import { withPlainProviders } from "./plain-providers.js"
import type { AuthConfig } from "./types.js"

export interface UnprovenQuery {
  /** Only users created before this time. */
  olderThan: Date
  /** At most this many (1 to 10 000). */
  limit: number
}

/**
 * Users whose email address was never proved (`emailVerified` empty), created before
 * `olderThan`, oldest first. Squatted addresses are among them (a passkey or an unverified
 * provider sign-up for somebody else's address), and so are real users who signed up with a
 * passkey and never confirmed their address: look before removing. With
 * `@latchkey/adapter-postgres`, users created before its migration 0008 have no creation time
 * and are never listed.
 */
export async function listUnprovenUsers(
  config: AuthConfig,
  query: UnprovenQuery,
): Promise<AdapterUser[]> {
  assertQuery(query)
  const adapter = needs(await usable(config), ["listUnprovenUsers"])
  return adapter.listUnprovenUsers({ olderThan: query.olderThan, limit: query.limit })
}

/**
 * Deletes the users `listUnprovenUsers` finds (their sessions ended first, then the row with
 * everything attached). Each row is read again just before: one whose address was proved in
 * the meantime is kept. Returns the users removed.
 */
export async function removeUnprovenUsers(
  config: AuthConfig,
  query: UnprovenQuery,
): Promise<AdapterUser[]> {
  assertQuery(query)
  const resolved = await usable(config)
  const adapter = needs(resolved, ["listUnprovenUsers", "getUser", "deleteUser"])
  const found = await adapter.listUnprovenUsers({ olderThan: query.olderThan, limit: query.limit })
  const removed: AdapterUser[] = []
  for (const user of found) {
    const now = await adapter.getUser(user.id)
    if (!now || isDate(now.emailVerified)) continue
    await endUserSessions(resolved, user.id)
    await beforeUserRemoved(resolved, user.id)
    await adapter.deleteUser(user.id)
    removed.push(user)
  }
  return removed
}

/**
 * Ends every session of the user signed in until now: database rows, and JWT sessions
 * through the user's session version. The same as `revokeUserSessions`.
 */
export async function endAllSessions(config: AuthConfig, userId: string): Promise<void> {
  assertUserId(userId)
  await endUserSessions(await usable(config), userId)
}

/**
 * Removes the user's two-factor enrollment and recovery codes, for an owner who lost their
 * authenticator and proved who they are some other way. Their next sign-in asks no code (or,
 * where the policy requires two-factor, asks them to enroll again). Returns whether there was
 * an enrollment. Moves the account's state: every session ends and every pending grant (a
 * mailed link, a second-factor step) dies, since the authenticator may be in someone else's
 * hands.
 */
export async function resetTwoFactor(config: AuthConfig, userId: string): Promise<boolean> {
  assertUserId(userId)
  const adapter = needs(await usable(config), ["getTwoFactor", "deleteTwoFactor"])
  const resolved = await usable(config)
  const enrolled = (await adapter.getTwoFactor(userId)) !== null
  await adapter.deleteTwoFactor(userId)
  await adapter.replaceRecoveryCodes?.(userId, [])
  // What it takes to control the account changed: nothing granted before may outlive it.
  if (enrolled) await moveAccountState(resolved, userId, "two-factor-off")
  return enrolled
}

/** What each feature settles before a user row goes (no organization is left ownerless). */
async function beforeUserRemoved(config: ResolvedConfig, userId: string): Promise<void> {
  for (const feature of featuresOf(config)) await feature.beforeUserRemoved?.(config, userId)
}

/**
 * An organization's members with their role, name and address, oldest first (organizations
 * configured). An unknown id: `[]`.
 */
export async function listOrganizationMembers(config: AuthConfig, organizationId: string) {
  assertId(organizationId, "organizationId")
  return membersOf(orgContext(await usable(config)), organizationId)
}

/**
 * Makes `userId` (a member) an owner of the organization and every other owner an admin, for
 * a support desk settling who owns it. Throws `OrganizationError` (`not-found`) for a user who
 * is not a member.
 */
export async function transferOrganizationOwnership(
  config: AuthConfig,
  organizationId: string,
  userId: string,
): Promise<void> {
  assertId(organizationId, "organizationId")
  assertUserId(userId)
  await transferOwnership(orgContext(await usable(config)), null, organizationId, userId)
}

/**
 * Removes the user from every organization (a ban, an account about to be deleted): where they
 * were the only owner, ownership passes to the oldest admin, else the oldest member; an
 * organization nobody else is in is deleted. Says what happened where.
 */
export async function removeUserFromOrganizations(
  config: AuthConfig,
  userId: string,
): Promise<RemovedFromOrganizations> {
  assertUserId(userId)
  return removeFromAll(orgContext(await usable(config)), userId)
}

export type { RemovedFromOrganizations }

async function usable(config: AuthConfig): Promise<ResolvedConfig> {
  const resolved = resolveConfig(await withPlainProviders(config))
  if (resolved.configError) throw resolved.configError
  return resolved
}

type AdapterOf<M extends keyof NonNullable<ResolvedConfig["adapter"]>> = Required<
  Pick<NonNullable<ResolvedConfig["adapter"]>, M>
> &
  NonNullable<ResolvedConfig["adapter"]>

function needs<const M extends keyof NonNullable<ResolvedConfig["adapter"]>>(
  config: ResolvedConfig,
  methods: readonly M[],
): AdapterOf<M> {
  const missing = methods.filter((m) => typeof config.adapter?.[m] !== "function")
  if (missing.length > 0) {
    throw new MissingAdapterMethods(
      `This needs an adapter with ${missing.map((m) => `${m}()`).join(", ")}`,
      { details: { methods: missing } },
    )
  }
  return config.adapter as AdapterOf<M>
}

function assertQuery(query: UnprovenQuery): void {
  if (!isDate(query?.olderThan)) throw new InvalidParameter("olderThan", "must be a valid Date")
  const { limit } = query
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new InvalidParameter("limit", "must be an integer from 1 to 10000")
  }
}

function assertUserId(userId: unknown): asserts userId is string {
  assertId(userId, "userId")
}

function assertId(id: unknown, name: string): asserts id is string {
  if (typeof id !== "string" || id.length === 0 || id.length > 512) {
    throw new InvalidParameter(name, "must be a non-empty string of at most 512 characters")
  }
}
