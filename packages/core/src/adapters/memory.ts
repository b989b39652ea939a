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
import type {
  AccountKey,
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "../kernel/adapters.js"
import { AdapterError } from "../kernel/errors.js"

// Every read and write goes through a deep copy, so a caller mutating what it got (or what it
// passed in) never changes the store behind the adapter's back — as with a real database.
const copy = <T>(value: T): T => structuredClone(value)

// Composite keys joined by NUL: no provider id or identifier contains it, so keys never collide.
const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}\u0000${providerAccountId}`
const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`

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

  return {
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
  }
}
