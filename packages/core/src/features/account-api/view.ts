/**
 * `GET {basePath}/account`: what the signed-in user's account page shows. A section is `null`
 * when the adapter (or, for JWT sessions, the revocation setting) cannot provide it.
 */

import { hasMethods } from "../../kernel/account/adapter-support.js"
import type { AccountUser } from "../../kernel/account/current-session.js"
import type { RecentAuthFacts } from "../../kernel/account/recent-auth.js"
import { recentAuthVerdict } from "../../kernel/account/recent-auth.js"
import { type EmailLinkMethod, emailLinkMethod } from "../../kernel/account/sign-in-methods.js"
import type { ResolvedConfig } from "../../kernel/config/resolve.js"
import { featuresOf } from "../../kernel/feature/feature.js"
import { nowSeconds } from "../../kernel/runtime/time.js"
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterUser,
} from "../../kernel/types/adapters.js"
import { type DeviceSession, listDeviceSessions } from "./device-sessions.js"

export interface AccountView {
  user: AccountUser
  recentAuth: { authTime: number | null; maxAge: number; recent: boolean }
  passkeys: PasskeyView[] | null
  sessions: DeviceSession[] | null
  accounts: LinkedAccountView[] | null
  /**
   * Sign-in links by mail, a way in when an email provider is configured and the address is
   * proven. Not removable on its own: changing the address moves it. `null` otherwise.
   */
  emailLink: EmailLinkMethod | null
  /**
   * The password of a password account (`Password` provider): whether one is set. `null` when
   * the app has no `Password` provider or the adapter cannot say.
   */
  password: { set: boolean } | null
}

export interface PasskeyView {
  /** The credential id (base64url). */
  id: string
  name: string | null
  createdAt: string | null
  lastUsedAt: string | null
  backedUp: boolean
  deviceType: string
}

export interface LinkedAccountView {
  provider: string
  type: string
  providerAccountId: string
}

const iso = (date: Date | null | undefined) =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : null

export function passkeyView(a: AdapterAuthenticator): PasskeyView {
  return {
    id: a.credentialID,
    name: a.name ?? null,
    createdAt: iso(a.createdAt),
    lastUsedAt: iso(a.lastUsedAt),
    backedUp: a.credentialBackedUp === true,
    deviceType: a.credentialDeviceType,
  }
}

/** Linked sign-in methods: provider accounts, not passkeys (they have their own section). */
export function linkedAccounts(accounts: readonly AdapterAccount[]): AdapterAccount[] {
  return accounts.filter((a) => a.type !== "webauthn")
}

export async function accountView(
  config: ResolvedConfig,
  current: {
    user: AccountUser
    userId: string
    sessionId: string | undefined
    /** The user's row, when the adapter has it: whether the address is proven. */
    stored: AdapterUser | null
  },
  facts: RecentAuthFacts,
): Promise<AccountView> {
  const { adapter } = config
  const { userId } = current
  const [passkeys, sessions, accounts, ...sections] = await Promise.all([
    hasMethods(config, ["listAuthenticatorsByUserId"])
      ? adapter!.listAuthenticatorsByUserId!(userId)
      : null,
    listDeviceSessions(config, userId, current.sessionId),
    hasMethods(config, ["listAccountsByUserId"]) ? adapter!.listAccountsByUserId!(userId) : null,
    ...featuresOf(config).map((feature) => feature.account?.view?.(config, userId)),
  ])
  const maxAge = config.session.recentAuthMaxAge
  return {
    user: current.user,
    recentAuth: {
      authTime: facts.authTime ?? null,
      maxAge,
      recent: recentAuthVerdict(facts, { maxAge }, nowSeconds()).recent,
    },
    passkeys: passkeys?.map(passkeyView) ?? null,
    sessions,
    accounts:
      accounts === null
        ? null
        : linkedAccounts(accounts).map((a) => ({
            provider: a.provider,
            type: a.type,
            providerAccountId: a.providerAccountId,
          })),
    emailLink: emailLinkMethod(config, current.stored),
    // Sections of the configured features (the password of password accounts): `null` without.
    password: null,
    ...Object.assign({}, ...sections),
  }
}
