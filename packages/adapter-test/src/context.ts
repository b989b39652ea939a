import {
  type Adapter,
  type AdapterAccount,
  type AdapterSession,
  type AdapterUser,
  accountAdapterMethods,
  type VerificationToken,
} from "@latchkey/core/adapters"
import { accountColumns } from "@latchkey/core/adapters/sql"

/** What an adapter's storage can and cannot do; the suite adapts its expectations to it. */
export interface AdapterCapabilities {
  /**
   * Whether the WebAuthn authenticator methods are tested. Default: when the adapter has all four.
   */
  authenticators?: boolean
  /** Longest string a text column keeps (names, tokens). Default 10 000 (the suite's longest). */
  maxStringLength?: number
  /** Whether linking the same (provider, providerAccountId) twice is refused. Default `true`. */
  uniqueAccounts?: boolean
}

export interface ContractOptions {
  /** Shown in the `describe` title. */
  name: string
  /** Builds the adapter under test (migrations, connections…); called once. */
  adapter: () => Promise<Adapter> | Adapter
  /** Releases what `adapter` set up; called once after the suite. */
  teardown?: () => Promise<void>
  capabilities?: AdapterCapabilities
}

/** The methods the database strategy and email sign-in need: the suite calls them all. */
type CoreMethods = (typeof accountAdapterMethods)[number]

export type ContractAdapter = Adapter & Required<Pick<Adapter, CoreMethods>>

/** Fails loudly when the adapter lacks a method of the contract, naming every missing one. */
export function requireMethods(adapter: Adapter): ContractAdapter {
  const missing = accountAdapterMethods.filter((name) => typeof adapter[name] !== "function")
  if (missing.length > 0) throw new Error(`adapter lacks: ${missing.join(", ")}`)
  return adapter as ContractAdapter
}

export interface ContractContext {
  /** The adapter, checked to have every core method. Only valid inside tests and hooks. */
  readonly adapter: ContractAdapter
  /** The adapter as given, for optional methods. */
  readonly raw: Adapter
  readonly capabilities: {
    authenticators: boolean | undefined
    maxStringLength: number
    uniqueAccounts: boolean
  }
}

/** A value no other test (or test run) produces, so tests can share one database. */
export const unique = (prefix = "") => `${prefix}${crypto.randomUUID()}`

/** A date with non-zero milliseconds: a store that drops or rounds them fails the round trip. */
export const dateWithMs = (offsetMs = 0) => new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123) + offsetMs)

/** A new user as the core hands it to `createUser` (with a proposed random id). */
export function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  return {
    id: crypto.randomUUID(),
    name: "Ada Lovelace",
    email: `${unique("ada-")}@example.com`,
    emailVerified: null,
    image: "https://example.com/ada.png",
    ...overrides,
  }
}

/** Creates a user and returns the stored record. */
export async function createUser(adapter: ContractAdapter, overrides: Partial<AdapterUser> = {}) {
  return await adapter.createUser(newUser(overrides))
}

/** An OAuth account with every column of the Auth.js schema filled. */
export function newAccount(
  userId: string,
  overrides: Partial<AdapterAccount> = {},
): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: unique("gh-"),
    access_token: unique("at-"),
    refresh_token: unique("rt-"),
    id_token: "eyJhbGciOiJSUzI1NiJ9.e30.sig",
    token_type: "bearer",
    scope: "read:user user:email",
    expires_at: 1_900_000_000,
    session_state: "state-1",
    ...overrides,
  }
}

/** A session as the core creates it: a 32-byte base64url token. */
export function newSession(
  userId: string,
  overrides: Partial<AdapterSession> = {},
): AdapterSession {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return {
    sessionToken: Buffer.from(bytes).toString("base64url"),
    userId,
    expires: dateWithMs(),
    ...overrides,
  }
}

/** A verification token as the core stores it (a hex HMAC of the mailed token). */
export function newVerificationToken(
  overrides: Partial<VerificationToken> = {},
): VerificationToken {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return {
    identifier: `${unique("v-")}@example.com`,
    token: Buffer.from(bytes).toString("hex"),
    expires: dateWithMs(),
    ...overrides,
  }
}

/** The Auth.js account columns: what every adapter must keep (extra keys may be dropped). */
export { accountColumns }

/**
 * The stored columns of an account; absent and `null` both read as `undefined`. Takes what an
 * adapter method returned (`AdapterAccount`, `null` or nothing).
 */
export function accountFields(account: unknown) {
  if (!account) return null
  const record = account as Record<string, unknown>
  return Object.fromEntries(accountColumns.map((key) => [key, record[key] ?? undefined]))
}

/**
 * A session without the account API's optional fields (`id`, `createdAt`, …) and the active
 * organization: the contract's Auth.js shape, so an adapter that adds them (a column default) still compares equal.
 */
export function sessionFields<T>(session: T): T {
  if (!session || typeof session !== "object") return session
  const {
    id: _i,
    createdAt: _c,
    lastSeenAt: _l,
    userAgent: _u,
    authTime: _a,
    amr: _m,
    activeOrganizationId: _o,
    ...rest
  } = session as Record<string, unknown>
  return rest as T
}

/** An authenticator without the account API's optional fields (`name`, `createdAt`, …). */
export function authenticatorFields<T>(authenticator: T): T {
  if (!authenticator || typeof authenticator !== "object") return authenticator
  const {
    name: _n,
    createdAt: _c,
    lastUsedAt: _l,
    ...rest
  } = authenticator as Record<string, unknown>
  return rest as T
}
