/**
 * The contract between Latchkey and a database. Method names and record shapes are those of
 * Auth.js v5 (`@auth/core/adapters`), so an Auth.js adapter works here and the reverse.
 * Every method is optional; the configuration check names the ones a feature needs.
 *
 * (The module behind `@latchkey/core/adapters`.)
 */

import type { Awaitable } from "./awaitable.js"
import type { Account, User } from "./records.js"

/**
 * A user's TOTP enrollment as the adapter stores it. `secret` is sealed by the core (compact
 * JWE under a key of its own) before it reaches the adapter: the database never holds it.
 */
export interface AdapterTwoFactor {
  userId: string
  /** The sealed TOTP secret (opaque to the adapter). */
  secret: string
  /** When the first valid code confirmed it; `null` while enrollment is unconfirmed. */
  enabledAt: Date | null
}

/** A user as stored: `id` and `email` always present, `emailVerified` set by email sign-in. */
export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
}

/** Account kinds an adapter stores (credentials sign-ins never create an account row). */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn"

/** A provider account linked to a user: one row per (provider, providerAccountId). */
export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

/** A database session: the cookie holds `sessionToken`, the row expires at `expires`. */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
}

/** A pending email sign-in. `token` is stored as an HMAC of the token sent by mail. */
export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

/** A WebAuthn credential registered by a user. */
export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  credentialDeviceType: string
  transports?: string | null
}

/**
 * One session as a "your devices" page lists it (JWT sessions have no row of their own; this
 * is their record). Never holds a token.
 */
export interface AdapterSessionRecord {
  /** The session id (`sid` claim). */
  sid: string
  userId: string
  /** When the user signed in. */
  authTime: Date
  /** When the session ends unless renewed (updated on re-issue). */
  expires: Date
}

/**
 * The bound a session write keeps: `createSessionRecord` (JWT sessions) and `createSession` of
 * an adapter with the account API (database sessions).
 */
export interface SessionRecordBound {
  /** Most records (rows) kept per user, the newest sign-ins (`session.maxListedSessions`). */
  maxPerUser: number
}

/** The provider and the user's id at that provider: the key of an account. */
export type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/**
 * New token values of an account (a provider token refresh). `undefined` leaves a column as it
 * is, `null` clears it.
 */
export type AccountTokensUpdate = AccountKey & {
  [K in "access_token" | "refresh_token" | "id_token" | "token_type" | "scope"]?: string | null
} & { expires_at?: number | null }

/** What Latchkey calls on a database. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(account: AccountKey): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(
    account: AdapterAccount,
  ): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(account: AccountKey): Promise<void> | Awaitable<AdapterAccount | undefined>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /** Latchkey extension (provider token refresh): the account `userId` has at `provider`. */
  getAccountByUserId?(userId: string, provider: string): Awaitable<AdapterAccount | null>
  /**
   * Latchkey extension (provider token refresh): write new token values of an account. Returns
   * the updated account, or `null` when there is no such account.
   */
  updateAccount?(account: AccountTokensUpdate): Awaitable<AdapterAccount | null>
  /**
   * Stores a new database session. `bound` is given only to an adapter with the account API
   * (`listSessionsByUserId`): the same write then removes the user's expired sessions and all
   * but the newest `bound.maxPerUser` (this one included, newest by `createdAt`), so one
   * account signed in again and again never grows the table. An Auth.js adapter gets one
   * argument, as in Auth.js: its rows go only when they expire or the user signs out.
   */
  createSession?(session: AdapterSession, bound?: SessionRecordBound): Awaitable<AdapterSession>
  /** One lookup returning the session and its user; `null` when there is no such session. */
  getSessionAndUser?(
    sessionToken: string,
  ): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Promise<void> | Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  createVerificationToken?(
    verificationToken: VerificationToken,
  ): Promise<void> | Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it in one step, so a link works at most once. */
  useVerificationToken?(params: {
    identifier: string
    token: string
  }): Awaitable<VerificationToken | null>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(
    credentialID: string,
    newCounter: number,
  ): Awaitable<AdapterAuthenticator>

  // Session revocation (Latchkey only; Auth.js has none). Optional: with all five, sessions
  // are revoked through the database when no shared `store` is configured.
  /** Ends session `sid` (remember it until `expires`), and forgets its record. */
  revokeSession?(sid: string, expires: Date): Awaitable<void>
  /**
   * In one lookup: whether `sid` was revoked, and the user's session version (0 when never
   * bumped). Either argument may be missing; its answer is then `false` / `0`.
   */
  getSessionRevocation?(params: {
    sid?: string | undefined
    userId?: string | undefined
  }): Awaitable<{ revoked: boolean; version: number }>
  /**
   * Raises the user's session version (every session signed in before is over) and forgets
   * the user's session records. Returns the new version.
   */
  bumpUserSessionVersion?(userId: string): Awaitable<number>
  /** Deletes every database session (row) of the user: `revokeUserSessions` with them. */
  deleteUserSessions?(userId: string): Awaitable<void>
  /**
   * Stores (or, same `sid`, updates) a session record. With `bound`, the same write removes the
   * user's expired records and all but the newest `bound.maxPerUser` (this one included), so
   * one account signed in again and again never grows the table.
   */
  createSessionRecord?(record: AdapterSessionRecord, bound?: SessionRecordBound): Awaitable<void>
  /** The user's records that have not expired, oldest sign-in first. */
  listSessionRecords?(userId: string): Awaitable<AdapterSessionRecord[]>

  // Two-factor sign-in (Latchkey only). Optional: all six are needed when `twoFactor` is set.
  // The secret arrives sealed and recovery codes arrive hashed: the adapter stores them as given.
  /** The user's TOTP enrollment (confirmed or not), or `null`. */
  getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
  /** Creates or replaces the user's enrollment. */
  setTwoFactor?(record: AdapterTwoFactor): Awaitable<void>
  /** Forgets the user's enrollment and every recovery code. */
  deleteTwoFactor?(userId: string): Awaitable<void>
  /** Replaces the user's recovery codes (hashes) with `codeHashes`. */
  replaceRecoveryCodes?(userId: string, codeHashes: readonly string[]): Awaitable<void>
  /**
   * Deletes the code `codeHash` of the user and says whether it was there, in one step, so two
   * concurrent uses never both succeed.
   */
  useRecoveryCode?(userId: string, codeHash: string): Awaitable<boolean>
  /** How many recovery codes the user has left. */
  countRecoveryCodes?(userId: string): Awaitable<number>
}

/** The optional methods two-factor sign-in (`twoFactor`) needs. */
export const twoFactorAdapterMethods = [
  "getTwoFactor",
  "setTwoFactor",
  "deleteTwoFactor",
  "replaceRecoveryCodes",
  "useRecoveryCode",
  "countRecoveryCodes",
] as const satisfies readonly (keyof Adapter)[]

/** The methods of users, accounts, sessions and verification tokens, in one list. */
export const accountAdapterMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
] as const satisfies readonly (keyof Adapter)[]

/** The methods only WebAuthn (passkeys) needs. */
export const webAuthnAdapterMethods = [
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[]

/** The methods only provider token refresh (a provider's `refresh` option) needs. */
export const refreshAdapterMethods = [
  "getAccountByUserId",
  "updateAccount",
] as const satisfies readonly (keyof Adapter)[]

/** The optional methods of session revocation through the database. */
export const revocationAdapterMethods = [
  "revokeSession",
  "getSessionRevocation",
  "bumpUserSessionVersion",
  "createSessionRecord",
  "listSessionRecords",
] as const satisfies readonly (keyof Adapter)[]

/** An adapter with every revocation method: revocation state can live in the database. */
export type RevocationAdapter = Required<Pick<Adapter, (typeof revocationAdapterMethods)[number]>>

export function hasRevocationMethods(adapter: Adapter | undefined): adapter is RevocationAdapter {
  return (
    adapter !== undefined &&
    revocationAdapterMethods.every((name) => typeof adapter[name] === "function")
  )
}

/** Every method of the contract. */
export const adapterMethods = [
  ...accountAdapterMethods,
  ...webAuthnAdapterMethods,
  ...refreshAdapterMethods,
  ...revocationAdapterMethods,
  "deleteUserSessions",
  ...twoFactorAdapterMethods,
] as const

/** Whether a value is a `Date` that holds a real time. */
export function isDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime())
}

// Account API (issue 20): optional fields and methods, merged into the interfaces above. An
// adapter that has `listSessionsByUserId` also accepts these fields in `createSession`; to any
// other adapter (e.g. one written for Auth.js) `createSession` passes the three Auth.js fields.

export interface AdapterSession {
  /** Public id of the session (never the token): what the account API lists and revokes. */
  id?: string
  createdAt?: Date
  /** When the session was last renewed (at most once per `updateAge`). */
  lastSeenAt?: Date | null
  /** Coarse user agent ("Firefox on Linux"): browser and OS family, no versions. */
  userAgent?: string | null
  /** When the user signed in (a recent sign-in is measured from it); absent: unknown. */
  authTime?: Date | null
  /** How the user signed in (RFC 8176 values). */
  amr?: string[] | null
}

export interface AdapterSessionRecord {
  /** When the session was last re-issued. */
  lastSeenAt?: Date | null
  /**
   * Coarse user agent at sign-in. A record written again without it (a re-issue) keeps the
   * stored one.
   */
  userAgent?: string | null
}

export interface AdapterAuthenticator {
  /** A name the user gave the passkey ("Work laptop"). */
  name?: string | null
  createdAt?: Date | null
  lastUsedAt?: Date | null
}

export interface Adapter {
  /**
   * The user's database sessions that have not expired (with `id`), oldest first. Without
   * their tokens: a listing is for display, and never needs one.
   */
  listSessionsByUserId?(userId: string): Awaitable<Omit<AdapterSession, "sessionToken">[]>
  /** Deletes the user's session with public id `id`; `false` when the user has no such session. */
  deleteSessionById?(userId: string, id: string): Awaitable<boolean>
  /** Every provider account linked to the user. */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /** Deletes the user's passkey `credentialID`; `false` when the user has no such passkey. */
  deleteAuthenticator?(userId: string, credentialID: string): Awaitable<boolean>
  /** Renames the user's passkey; `false` when the user has no such passkey. */
  renameAuthenticator?(userId: string, credentialID: string, name: string): Awaitable<boolean>
}

/** The optional methods of the account API (`{basePath}/account`). */
export const accountApiAdapterMethods = [
  "listSessionsByUserId",
  "deleteSessionById",
  "listAccountsByUserId",
  "deleteAuthenticator",
  "renameAuthenticator",
] as const satisfies readonly (keyof Adapter)[]

// Password accounts (issue 28): the hash of the password the core stores for a user. A user
// has at most one; the hash is a PHC-style string naming its algorithm and parameters.
export interface Adapter {
  /** The user's password hash, or `null` when the user has no password stored by Latchkey. */
  getPasswordHash?(userId: string): Awaitable<string | null>
  /** Stores (or replaces) the user's password hash. */
  setPasswordHash?(userId: string, hash: string): Awaitable<void>
  /** Deletes the user's Latchkey-managed password; `false` when the user had none. */
  deletePasswordHash?(userId: string): Awaitable<boolean>
}

/** The optional methods of password accounts (the `Password` provider). */
export const passwordAdapterMethods = [
  "getPasswordHash",
  "setPasswordHash",
  "deletePasswordHash",
] as const satisfies readonly (keyof Adapter)[]

// Address ownership (docs/design/address-ownership.md): what a claim and the operator clean-up
// call. Optional, like every method.

export interface Adapter {
  /**
   * Users whose email was never proved (`emailVerified` empty) created before `olderThan`,
   * oldest first, at most `limit`. For the operator clean-up of squatted addresses.
   */
  listUnprovenUsers?(params: { olderThan: Date; limit: number }): Awaitable<AdapterUser[]>
}

/** The optional methods of address ownership (a claim, the operator clean-up). */
export const ownershipAdapterMethods = [
  "deletePasswordHash",
  "listUnprovenUsers",
] as const satisfies readonly (keyof Adapter)[]

// Organizations (issue 45; docs/design/organizations.md): organizations, their members and
// invitations. Optional as a group: the organizations feature's start-up check names the
// missing ones. Every rule that must hold under concurrent requests (one membership per user
// and organization, one pending invitation per address, the last owner, the per-user limit)
// is the adapter's, on every database: the contract suite races requests to check it.

/** An organization. `slug` is stored lower-cased: unique without regard to case. */
export interface AdapterOrganization {
  id: string
  name: string
  slug: string
  createdAt: Date
}

/** A user's membership of an organization: at most one per (organization, user). */
export interface AdapterMember {
  organizationId: string
  userId: string
  role: string
  createdAt: Date
}

/** A pending invitation: at most one per (organization, address); a new one replaces it. */
export interface AdapterInvitation {
  id: string
  organizationId: string
  email: string
  role: string
  inviterId: string
  expiresAt: Date
  createdAt: Date
}

/** The answer to a role change or a removal: `last-owner` when it would leave no owner. */
export type MemberChange = "done" | "not-found" | "last-owner"

/** The role every organization keeps at least one member in. */
export const ownerRole = "owner"

export interface AdapterSession {
  /**
   * The organization the session acts in (a database session's column), written through
   * `updateSession` (`undefined` leaves it, `null` clears it) and returned by
   * `getSessionAndUser`, present while set, by the adapters that store it. The feature
   * re-checks the membership on every use: the value may name an organization the user has
   * since left, or one deleted since.
   */
  activeOrganizationId?: string | null
}

export interface Adapter {
  /**
   * Inserts the organization (its slug lower-cased) and `ownerId` as its owner in one step.
   * Refuses a slug taken without regard to case, and a user who already created
   * `bound.maxPerUser` organizations that still exist (counted under a lock, so concurrent
   * creates never pass it). Returns the organization as stored.
   */
  createOrganization?(
    org: AdapterOrganization,
    ownerId: string,
    bound: { maxPerUser: number },
  ): Awaitable<AdapterOrganization | "slug-taken" | "limit-reached">
  getOrganization?(id: string): Awaitable<AdapterOrganization | null>
  /** The organization with this slug, case ignored. */
  getOrganizationBySlug?(slug: string): Awaitable<AdapterOrganization | null>
  /** Renames it or changes its slug; `null` when there is no such organization. */
  updateOrganization?(
    org: Pick<AdapterOrganization, "id"> & Partial<Pick<AdapterOrganization, "name" | "slug">>,
  ): Awaitable<AdapterOrganization | "slug-taken" | null>
  /** Deletes the organization with its members and invitations; `false` when there was none. */
  deleteOrganization?(id: string): Awaitable<boolean>
  /** The user's organizations with their role, oldest membership first. */
  listOrganizationsByUserId?(
    userId: string,
  ): Awaitable<{ organization: AdapterOrganization; role: string }[]>
  getMember?(organizationId: string, userId: string): Awaitable<AdapterMember | null>
  /** Members with their user's name and address, oldest first. */
  listMembers?(
    organizationId: string,
  ): Awaitable<(AdapterMember & { user: { name: string | null; email: string | null } })[]>
  /** Changes a role; refuses (`last-owner`) to leave the organization without an owner. */
  updateMemberRole?(organizationId: string, userId: string, role: string): Awaitable<MemberChange>
  /** Removes a member; refuses (`last-owner`) to remove the last owner. */
  removeMember?(organizationId: string, userId: string): Awaitable<MemberChange>
  /**
   * Creates an invitation, replacing any pending one for the same organization and address
   * (whose id then finds nothing). Of concurrent ones, one stays.
   */
  createInvitation?(invitation: AdapterInvitation): Awaitable<AdapterInvitation>
  /** The invitation, expired or not; `null` when it is gone. */
  getInvitation?(id: string): Awaitable<AdapterInvitation | null>
  /** The organization's invitations (expired ones too, until replaced or deleted), oldest first. */
  listInvitations?(organizationId: string): Awaitable<AdapterInvitation[]>
  /** Deletes the invitation; `false` when the organization has no such invitation. */
  deleteInvitation?(organizationId: string, id: string): Awaitable<boolean>
  /**
   * In one step: deletes the invitation if it is still there and unexpired at `now`, and makes
   * `userId` a member with its role, from `now` (an existing membership is kept as it is). The
   * membership, or `null` when the invitation is gone or expired: of concurrent accepts of one
   * invitation, one gets the membership.
   */
  acceptInvitation?(id: string, userId: string, now: Date): Awaitable<AdapterMember | null>
}

/** The optional methods of organizations (`organizations` in the config). */
export const organizationAdapterMethods = [
  "createOrganization",
  "getOrganization",
  "getOrganizationBySlug",
  "updateOrganization",
  "deleteOrganization",
  "listOrganizationsByUserId",
  "getMember",
  "listMembers",
  "updateMemberRole",
  "removeMember",
  "createInvitation",
  "getInvitation",
  "listInvitations",
  "deleteInvitation",
  "acceptInvitation",
] as const satisfies readonly (keyof Adapter)[]
