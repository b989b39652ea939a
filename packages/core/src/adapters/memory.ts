/**
 * An in-memory {@link Adapter}: every record lives in a `Map` of this process and is gone when it
 * exits. It exists **for tests and the demo only** — it is not shared between instances, has no
 * persistence and no size bound. Use a database adapter (e.g. `@latchkey/adapter-postgres`) in
 * production.
 *
 * It follows the same rules a database adapter does, so that tests written against it hold for
 * real adapters too: the shared contract suite (`@latchkey/adapter-test`) runs against it.
 *
 * @module @latchkey/core/adapters/memory
 */

import { withAdapterFeature } from "../features/adapter/index.js"
import { AdapterError } from "../kernel/errors/errors.js"
import type {
  AccountKey,
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterInvitation,
  AdapterMember,
  AdapterOrganization,
  AdapterSession,
  AdapterSessionRecord,
  AdapterTwoFactor,
  AdapterUser,
  MemberChange,
  VerificationToken,
} from "../kernel/types/adapters.js"
import { ownerRole } from "../kernel/types/adapters.js"

// Every read and write goes through a deep copy, so a caller mutating what it got (or what it
// passed in) never changes the store behind the adapter's back — as with a real database.
const copy = <T>(value: T): T => structuredClone(value)

// Composite keys joined by NUL: no provider id or identifier contains it, so keys never collide.
const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}\u0000${providerAccountId}`
const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`
const memberKey = (organizationId: string, userId: string) => `${organizationId}\u0000${userId}`

/**
 * Creates an empty in-memory adapter implementing every method of the contract.
 * For tests and the demo only: nothing is persisted or shared between processes.
 */
export function MemoryAdapter(): Adapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  // Revocation: revoked session ids (until when), user session versions, session records.
  const revokedSessions = new Map<string, number>()
  const sessionVersions = new Map<string, number>()
  const sessionRecords = new Map<string, AdapterSessionRecord>()
  const twoFactors = new Map<string, AdapterTwoFactor>()
  const recoveryCodes = new Map<string, Set<string>>()
  const passwordHashes = new Map<string, string>()
  // When each user was created (listUnprovenUsers), kept apart so user records stay as given.
  const createdAt = new Map<string, number>()
  const organizations = memoryOrganizations(users)

  const findUser = (id: string | undefined) =>
    id === undefined ? null : copy(users.get(id) ?? null)

  /**
   * Deletes the user's expired sessions and all but the newest `keep` live others, in the same
   * synchronous step as the insert that follows (as the SQL adapter's one statement does).
   * Newest by `createdAt`; of equal ones (the core writes whole seconds), the later inserted.
   */
  function dropBeyondNewest(userId: string, keep: number) {
    const now = Date.now()
    const live: AdapterSession[] = []
    for (const s of sessions.values()) {
      if (s.userId !== userId) continue
      if (s.expires.getTime() < now) sessions.delete(s.sessionToken)
      else live.push(s)
    }
    live.reverse().sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
    for (const s of live.slice(Math.max(0, keep))) sessions.delete(s.sessionToken)
  }

  return withAdapterFeature({
    createUser(user) {
      // The core proposes an id; keep it when free (a database would generate its own).
      const id = user.id && !users.has(user.id) ? user.id : crypto.randomUUID()
      const stored: AdapterUser = { ...copy(user), id }
      users.set(id, stored)
      createdAt.set(id, Date.now())
      return copy(stored)
    },

    listUnprovenUsers({ olderThan, limit }) {
      return [...users.values()]
        .filter((u) => u.emailVerified == null && createdAt.get(u.id)! < olderThan.getTime())
        .sort((a, b) => createdAt.get(a.id)! - createdAt.get(b.id)!)
        .slice(0, limit)
        .map(copy)
    },

    getUser(id) {
      return findUser(id)
    },

    getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return copy(user)
      return null
    },

    getUserByAccount({ provider, providerAccountId }: AccountKey) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return findUser(account?.userId)
    },

    updateUser(patch) {
      const current = users.get(patch.id)
      if (!current) throw new AdapterError("updateUser: no user with this id")
      // `undefined` in a patch means "leave as is", like an SQL update of the given columns only.
      const changes = Object.entries(copy(patch)).filter(([, value]) => value !== undefined)
      const updated: AdapterUser = { ...current, ...Object.fromEntries(changes), id: current.id }
      users.set(current.id, updated)
      return copy(updated)
    },

    deleteUser(userId) {
      const user = users.get(userId)
      if (!user) return null
      users.delete(userId)
      createdAt.delete(userId)
      // Cascade, as the database adapters do: nothing may keep pointing at a deleted user.
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId === userId) authenticators.delete(key)
      }
      twoFactors.delete(userId)
      recoveryCodes.delete(userId)
      passwordHashes.delete(userId)
      organizations.forgetUser(userId)
      return copy(user)
    },

    linkAccount(account) {
      const key = accountKey(account.provider, account.providerAccountId)
      // Mirrors the unique (provider, providerAccountId) constraint of the SQL schema.
      if (accounts.has(key)) throw new AdapterError("linkAccount: account already linked")
      if (!users.has(account.userId)) throw new AdapterError("linkAccount: no such user")
      accounts.set(key, copy(account))
      return copy(account)
    },

    unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return undefined
      accounts.delete(key)
      return copy(account)
    },

    getAccount(providerAccountId, provider) {
      return copy(accounts.get(accountKey(provider, providerAccountId)) ?? null)
    },

    getAccountByUserId(userId, provider) {
      for (const account of accounts.values()) {
        if (account.userId === userId && account.provider === provider) return copy(account)
      }
      return null
    },

    updateAccount(patch) {
      const key = accountKey(patch.provider, patch.providerAccountId)
      const current = accounts.get(key)
      if (!current) return null
      const updated: AdapterAccount = { ...current }
      for (const [name, value] of Object.entries(copy(patch))) {
        if (value === undefined) continue
        // `null` clears a column: the record leaves the field out, as a NULL column reads back.
        if (value === null) delete updated[name]
        else updated[name] = value
      }
      accounts.set(key, updated)
      return copy(updated)
    },

    createSession(session, bound) {
      if (sessions.has(session.sessionToken)) {
        throw new AdapterError("createSession: session token already exists")
      }
      // A public id separate from the token, as the SQL column's default gives one.
      const stored: AdapterSession = { ...copy(session), id: session.id ?? crypto.randomUUID() }
      stored.createdAt ??= new Date()
      if (bound) dropBeyondNewest(stored.userId, bound.maxPerUser - 1)
      sessions.set(session.sessionToken, stored)
      return copy(stored)
    },

    getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      if (!session || !user) return null
      return { session: copy(session), user: copy(user) }
    },

    updateSession(patch) {
      const current = sessions.get(patch.sessionToken)
      if (!current) return null
      const updated: AdapterSession = {
        ...current,
        sessionToken: current.sessionToken,
        userId: patch.userId ?? current.userId,
        expires: patch.expires ? new Date(patch.expires) : current.expires,
      }
      if (patch.lastSeenAt !== undefined) updated.lastSeenAt = patch.lastSeenAt
      // Present while set, as the SQL adapters read a NULL column back.
      if (patch.activeOrganizationId === null) delete updated.activeOrganizationId
      else if (patch.activeOrganizationId !== undefined) {
        updated.activeOrganizationId = patch.activeOrganizationId
      }
      sessions.set(current.sessionToken, updated)
      return copy(updated)
    },

    deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      sessions.delete(sessionToken)
      return copy(session)
    },

    createVerificationToken(verificationToken) {
      const key = tokenKey(verificationToken.identifier, verificationToken.token)
      // Mirrors the (identifier, token) primary key of the SQL schema.
      if (verificationTokens.has(key)) {
        throw new AdapterError("createVerificationToken: token already exists")
      }
      verificationTokens.set(key, copy(verificationToken))
      return copy(verificationToken)
    },

    useVerificationToken({ identifier, token }) {
      // Read and delete happen in one synchronous step: a link works at most once.
      const key = tokenKey(identifier, token)
      const found = verificationTokens.get(key)
      if (!found) return null
      verificationTokens.delete(key)
      return copy(found)
    },

    createAuthenticator(authenticator) {
      if (authenticators.has(authenticator.credentialID)) {
        throw new AdapterError("createAuthenticator: credential already registered")
      }
      const stored = { ...copy(authenticator), createdAt: authenticator.createdAt ?? new Date() }
      authenticators.set(authenticator.credentialID, stored)
      return copy(stored)
    },

    getAuthenticator(credentialID) {
      return copy(authenticators.get(credentialID) ?? null)
    },

    listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy)
    },

    updateAuthenticatorCounter(credentialID, newCounter) {
      const current = authenticators.get(credentialID)
      if (!current) throw new AdapterError("updateAuthenticatorCounter: no such credential")
      // Called on every sign-in with the passkey: also when it was last used.
      const updated = { ...current, counter: newCounter, lastUsedAt: new Date() }
      authenticators.set(credentialID, updated)
      return copy(updated)
    },

    revokeSession(sid, expires) {
      revokedSessions.set(sid, new Date(expires).getTime())
      sessionRecords.delete(sid)
    },

    getSessionRevocation({ sid, userId }) {
      const until = sid === undefined ? undefined : revokedSessions.get(sid)
      if (until !== undefined && until <= Date.now()) revokedSessions.delete(sid!)
      return {
        revoked: until !== undefined && until > Date.now(),
        version: userId === undefined ? 0 : (sessionVersions.get(userId) ?? 0),
      }
    },

    bumpUserSessionVersion(userId) {
      const version = (sessionVersions.get(userId) ?? 0) + 1
      sessionVersions.set(userId, version)
      for (const [sid, record] of sessionRecords) {
        if (record.userId === userId) sessionRecords.delete(sid)
      }
      return version
    },

    deleteUserSessions(userId) {
      for (const [token, session] of sessions) if (session.userId === userId) sessions.delete(token)
    },

    createSessionRecord(record, bound) {
      const userAgent = record.userAgent ?? sessionRecords.get(record.sid)?.userAgent
      const now = Date.now()
      // Bounded as it is written, like the SQL adapter: expired records go, and all but the
      // newest of the user's others.
      const others = [...sessionRecords.values()]
        .filter((r) => r.userId === record.userId && r.sid !== record.sid)
        .sort((a, b) => b.authTime.getTime() - a.authTime.getTime())
      const keep = bound ? Math.max(0, bound.maxPerUser - 1) : Number.POSITIVE_INFINITY
      others.forEach((r, i) => {
        if (r.expires.getTime() < now || i >= keep) sessionRecords.delete(r.sid)
      })
      sessionRecords.set(record.sid, { ...copy(record), ...(userAgent ? { userAgent } : {}) })
    },

    listSessionRecords(userId) {
      const now = Date.now()
      return [...sessionRecords.values()]
        .filter((r) => r.userId === userId && r.expires.getTime() > now)
        .sort((a, b) => a.authTime.getTime() - b.authTime.getTime())
        .map(copy)
    },

    listSessionsByUserId(userId) {
      const now = Date.now()
      return [...sessions.values()]
        .filter((s) => s.userId === userId && s.expires.getTime() > now)
        .sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0))
        .map(({ sessionToken: _token, ...rest }) => copy(rest))
    },

    deleteSessionById(userId, id) {
      for (const [token, session] of sessions) {
        if (session.id === id && session.userId === userId) {
          sessions.delete(token)
          return true
        }
      }
      return false
    },

    listAccountsByUserId(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map(copy)
    },

    deleteAuthenticator(userId, credentialID) {
      const found = authenticators.get(credentialID)
      if (!found || found.userId !== userId) return false
      authenticators.delete(credentialID)
      return true
    },

    renameAuthenticator(userId, credentialID, name) {
      const found = authenticators.get(credentialID)
      if (!found || found.userId !== userId) return false
      authenticators.set(credentialID, { ...found, name })
      return true
    },

    // Two-factor sign-in: the sealed secret and the recovery code hashes, stored as given.
    getTwoFactor(userId) {
      return copy(twoFactors.get(userId) ?? null)
    },

    setTwoFactor(record) {
      twoFactors.set(record.userId, copy(record))
    },

    deleteTwoFactor(userId) {
      twoFactors.delete(userId)
      recoveryCodes.delete(userId)
    },

    replaceRecoveryCodes(userId, codeHashes) {
      recoveryCodes.set(userId, new Set(codeHashes))
    },

    useRecoveryCode(userId, codeHash) {
      // Check and delete in one synchronous step: two uses never both find it.
      return recoveryCodes.get(userId)?.delete(codeHash) ?? false
    },

    countRecoveryCodes(userId) {
      return recoveryCodes.get(userId)?.size ?? 0
    },

    // Password accounts: one hash per user, stored as given.
    getPasswordHash(userId) {
      return passwordHashes.get(userId) ?? null
    },

    setPasswordHash(userId, hash) {
      passwordHashes.set(userId, hash)
    },

    deletePasswordHash(userId) {
      return passwordHashes.delete(userId)
    },

    ...organizations.methods,
  })
}

/** Oldest first; of equal times, by `tieBreak` (as the SQL adapters order them). */
const oldestFirst =
  <T extends { createdAt: Date }>(tieBreak: (item: T) => string) =>
  (a: T, b: T) =>
    a.createdAt.getTime() - b.createdAt.getTime() || (tieBreak(a) < tieBreak(b) ? -1 : 1)

/**
 * Organizations, their members and invitations. Each method is one synchronous step, so the
 * rules a database keeps with locks and unique keys (the last owner, the per-user limit, one
 * membership and one pending invitation) hold here by construction.
 */
function memoryOrganizations(users: ReadonlyMap<string, AdapterUser>) {
  const organizations = new Map<string, AdapterOrganization>()
  // Who created each organization: the per-user limit counts the ones that still exist.
  const creators = new Map<string, string>()
  const members = new Map<string, AdapterMember>()
  const invitations = new Map<string, AdapterInvitation>()

  const bySlug = (slug: string) => {
    const key = slug.toLowerCase()
    for (const org of organizations.values()) if (org.slug === key) return org
    return undefined
  }
  const ownerCount = (organizationId: string) =>
    [...members.values()].filter((m) => m.organizationId === organizationId && m.role === ownerRole)
      .length
  /** Whether changing `member` to `role` (`null`: removing it) would leave no owner. */
  const leavesNoOwner = (member: AdapterMember, role: string | null) =>
    member.role === ownerRole && role !== ownerRole && ownerCount(member.organizationId) <= 1

  const methods = {
    createOrganization(
      org: AdapterOrganization,
      ownerId: string,
      bound: { maxPerUser: number },
    ): AdapterOrganization | "slug-taken" | "limit-reached" {
      if (!users.has(ownerId)) throw new AdapterError("createOrganization: no such user")
      const created = [...creators.values()].filter((id) => id === ownerId).length
      if (created >= bound.maxPerUser) return "limit-reached"
      if (bySlug(org.slug)) return "slug-taken"
      const id = org.id && !organizations.has(org.id) ? org.id : crypto.randomUUID()
      const stored: AdapterOrganization = {
        id,
        name: org.name,
        slug: org.slug.toLowerCase(),
        createdAt: new Date(org.createdAt),
      }
      organizations.set(id, stored)
      creators.set(id, ownerId)
      members.set(memberKey(id, ownerId), {
        organizationId: id,
        userId: ownerId,
        role: ownerRole,
        createdAt: new Date(org.createdAt),
      })
      return copy(stored)
    },

    getOrganization(id: string) {
      return copy(organizations.get(id) ?? null)
    },

    getOrganizationBySlug(slug: string) {
      return copy(bySlug(slug) ?? null)
    },

    updateOrganization(
      patch: Pick<AdapterOrganization, "id"> & Partial<Pick<AdapterOrganization, "name" | "slug">>,
    ): AdapterOrganization | "slug-taken" | null {
      const current = organizations.get(patch.id)
      if (!current) return null
      const taken = patch.slug === undefined ? undefined : bySlug(patch.slug)
      if (taken && taken.id !== current.id) return "slug-taken"
      const updated: AdapterOrganization = {
        ...current,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.slug !== undefined ? { slug: patch.slug.toLowerCase() } : {}),
      }
      organizations.set(current.id, updated)
      return copy(updated)
    },

    deleteOrganization(id: string) {
      if (!organizations.delete(id)) return false
      creators.delete(id)
      for (const [key, m] of members) if (m.organizationId === id) members.delete(key)
      for (const [key, i] of invitations) if (i.organizationId === id) invitations.delete(key)
      return true
    },

    listOrganizationsByUserId(userId: string) {
      return [...members.values()]
        .filter((m) => m.userId === userId)
        .sort(oldestFirst((m) => m.organizationId))
        .map((m) => ({ organization: copy(organizations.get(m.organizationId)!), role: m.role }))
    },

    getMember(organizationId: string, userId: string) {
      return copy(members.get(memberKey(organizationId, userId)) ?? null)
    },

    listMembers(organizationId: string) {
      return [...members.values()]
        .filter((m) => m.organizationId === organizationId)
        .sort(oldestFirst((m) => m.userId))
        .map((m) => {
          const user = users.get(m.userId)
          return { ...copy(m), user: { name: user?.name ?? null, email: user?.email ?? null } }
        })
    },

    updateMemberRole(organizationId: string, userId: string, role: string): MemberChange {
      const member = members.get(memberKey(organizationId, userId))
      if (!member) return "not-found"
      if (leavesNoOwner(member, role)) return "last-owner"
      members.set(memberKey(organizationId, userId), { ...member, role })
      return "done"
    },

    removeMember(organizationId: string, userId: string): MemberChange {
      const member = members.get(memberKey(organizationId, userId))
      if (!member) return "not-found"
      if (leavesNoOwner(member, null)) return "last-owner"
      members.delete(memberKey(organizationId, userId))
      return "done"
    },

    createInvitation(invitation: AdapterInvitation) {
      // Mirrors the SQL schema's foreign keys.
      if (!organizations.has(invitation.organizationId)) {
        throw new AdapterError("createInvitation: no such organization")
      }
      if (!users.has(invitation.inviterId)) throw new AdapterError("createInvitation: no such user")
      for (const [id, pending] of invitations) {
        const same =
          pending.organizationId === invitation.organizationId && pending.email === invitation.email
        if (same) invitations.delete(id)
      }
      const id = invitations.has(invitation.id) ? crypto.randomUUID() : invitation.id
      const stored = { ...copy(invitation), id }
      invitations.set(id, stored)
      return copy(stored)
    },

    getInvitation(id: string) {
      return copy(invitations.get(id) ?? null)
    },

    listInvitations(organizationId: string) {
      return [...invitations.values()]
        .filter((i) => i.organizationId === organizationId)
        .sort(oldestFirst((i) => i.id))
        .map(copy)
    },

    deleteInvitation(organizationId: string, id: string) {
      if (invitations.get(id)?.organizationId !== organizationId) return false
      return invitations.delete(id)
    },

    acceptInvitation(id: string, userId: string, now: Date) {
      const invitation = invitations.get(id)
      if (!invitation || invitation.expiresAt.getTime() <= now.getTime()) return null
      if (!users.has(userId)) throw new AdapterError("acceptInvitation: no such user")
      invitations.delete(id)
      const key = memberKey(invitation.organizationId, userId)
      const existing = members.get(key)
      if (existing) return copy(existing)
      const member: AdapterMember = {
        organizationId: invitation.organizationId,
        userId,
        role: invitation.role,
        createdAt: new Date(now),
      }
      members.set(key, member)
      return copy(member)
    },
  } satisfies Partial<Adapter>

  /** A deleted user's memberships and invitations go; the organizations they made stay. */
  function forgetUser(userId: string) {
    for (const [key, m] of members) if (m.userId === userId) members.delete(key)
    for (const [id, i] of invitations) if (i.inviterId === userId) invitations.delete(id)
    for (const [id, creator] of creators) if (creator === userId) creators.delete(id)
  }

  return { methods, forgetUser }
}
