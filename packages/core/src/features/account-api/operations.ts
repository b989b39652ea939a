/**
 * The account changes (`POST {basePath}/account/<op>`), each on the signed-in user's own
 * items only: an id that is not theirs is `AccountItemNotFound`, whether or not it exists
 * for someone else, and nothing changes. Removing the last way to sign in is
 * `LastSignInMethod`.
 */

import { requireMethods } from "../../kernel/account/adapter-support.js"
import { countSignInMethods } from "../../kernel/account/sign-in-methods.js"
import type { ResolvedConfig } from "../../kernel/config/resolve.js"
import { InvalidProvider, InvalidRequest, LastSignInMethod } from "../../kernel/errors/errors.js"
import {
  type AccountOpInput,
  type AccountOp as FeatureOp,
  featuresOf,
} from "../../kernel/feature/feature.js"
import { moveAccountState } from "../../kernel/grants/account-state.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
import {
  jwtSessionsUnsupported,
  notFound,
  revokeDeviceSession,
  revokeOtherDeviceSessions,
} from "./device-sessions.js"
import { linkedAccounts } from "./view.js"

/** The kernel's own changes: passkeys, sessions and linked accounts are adapter rows. */
const KERNEL_OPS = [
  "passkey-rename",
  "passkey-delete",
  "session-revoke",
  "sessions-revoke-others",
  "account-unlink",
] as const

/**
 * Every change of the account API: the kernel's, and those features add (the password and the
 * address of password accounts: `features/password/account-ops.ts`). Names only: a feature's
 * change is answered only when the feature is configured.
 */
export const ACCOUNT_OPS = [
  ...KERNEL_OPS,
  "password-set",
  "password-change",
  "password-remove",
  "email-change",
] as const

export type AccountOp = (typeof ACCOUNT_OPS)[number]
type KernelOp = (typeof KERNEL_OPS)[number]

const isKernelOp = (op: AccountOp): op is KernelOp => (KERNEL_OPS as readonly string[]).includes(op)

export function isAccountOp(value: string | undefined): value is AccountOp {
  return (ACCOUNT_OPS as readonly string[]).includes(value ?? "")
}

/** The configured feature that answers `op`, if any. */
function featureOp(config: ResolvedConfig, op: string): FeatureOp | undefined {
  for (const feature of featuresOf(config)) {
    const found = feature.account?.ops?.[op]
    if (found) return found
  }
  return undefined
}

export type OpInput = AccountOpInput

/** A bounded, non-empty string field, else `InvalidRequest` (400). */
function field(body: OpInput["body"], name: string, max = 512): string {
  const value = body[name]
  if (typeof value !== "string" || value === "" || value.length > max) {
    throw new InvalidRequest(`"${name}" must be a non-empty string of at most ${max} characters`)
  }
  return value
}

/** A passkey name: trimmed, 1–64 characters, no control characters. */
function passkeyName(body: OpInput["body"]): string {
  const name = field(body, "name", 256).trim()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (name === "" || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new InvalidRequest('"name" must be 1 to 64 characters without control characters')
  }
  return name
}

/**
 * The adapter methods `op` needs, checked before the recent-sign-in rule: asking a user to
 * sign in again for a change the server cannot make would be a pointless detour.
 */
export function assertOpSupported(op: AccountOp, config: ResolvedConfig): void {
  if (!isKernelOp(op)) {
    const answered = featureOp(config, op)
    if (!answered) {
      throw new InvalidProvider(
        `The account change ${op} belongs to a feature this app does not configure`,
      )
    }
    requireMethods(config, (answered.needs?.(config) ?? []) as readonly (keyof Adapter)[])
    return
  }
  const needs: Record<
    KernelOp,
    readonly (keyof import("../../kernel/types/adapters.js").Adapter)[]
  > = {
    "passkey-rename": ["renameAuthenticator"],
    "passkey-delete": [
      "listAuthenticatorsByUserId",
      "listAccountsByUserId",
      "deleteAuthenticator",
      "getUser",
    ],
    "session-revoke": config.session.strategy === "database" ? ["deleteSessionById"] : [],
    "sessions-revoke-others":
      config.session.strategy === "database" ? ["listSessionsByUserId", "deleteSessionById"] : [],
    "account-unlink": [
      "listAccountsByUserId",
      "unlinkAccount",
      "getUser",
      "listAuthenticatorsByUserId",
    ],
  }
  requireMethods(config, needs[op])
  if (
    config.session.strategy === "jwt" &&
    config.session.revocation === "off" &&
    op.startsWith("session")
  ) {
    throw jwtSessionsUnsupported()
  }
}

/** Runs `op`; returns cookies to set. */
export async function runAccountOp(
  op: AccountOp,
  input: OpInput,
): Promise<readonly ResponseCookie[]> {
  const { keep, userId, body } = input
  const { config } = keep.sctx
  if (!isKernelOp(op)) return featureOp(config, op)!.run(input)
  switch (op) {
    case "passkey-rename": {
      const id = field(body, "id")
      const name = passkeyName(body)
      const adapter = requireMethods(config, ["renameAuthenticator"])
      if (!(await adapter.renameAuthenticator(userId, id, name))) throw notFound()
      return []
    }
    case "passkey-delete": {
      const id = field(body, "id")
      const adapter = requireMethods(config, [
        "listAuthenticatorsByUserId",
        "listAccountsByUserId",
        "deleteAuthenticator",
        "getUser",
      ])
      const [passkeys, accounts, user] = await Promise.all([
        adapter.listAuthenticatorsByUserId(userId),
        adapter.listAccountsByUserId(userId),
        adapter.getUser(userId),
      ])
      const passkey = passkeys.find((p) => p.credentialID === id)
      if (!passkey) throw notFound()
      const others = passkeys.filter((p) => p !== passkey)
      await refuseLast(await countSignInMethods(config, user, others, accounts))
      if (!(await adapter.deleteAuthenticator(userId, id))) throw notFound()
      // Auth.js keeps a "webauthn" account row per passkey: it goes with the passkey.
      const row = accounts.find((a) => a.type === "webauthn" && a.providerAccountId === id)
      if (row && config.adapter?.unlinkAccount) {
        await config.adapter.unlinkAccount({ provider: row.provider, providerAccountId: id })
      }
      return moveAccountState(config, userId, "passkey-removed", keep)
    }
    case "session-revoke": {
      const id = field(body, "id")
      await revokeDeviceSession(config, userId, id)
      return []
    }
    case "sessions-revoke-others":
      return revokeOtherDeviceSessions({ ...keep, userId })
    case "account-unlink": {
      const provider = field(body, "provider", 128)
      const providerAccountId = field(body, "providerAccountId")
      const adapter = requireMethods(config, [
        "listAccountsByUserId",
        "unlinkAccount",
        "getUser",
        "listAuthenticatorsByUserId",
      ])
      const [accounts, passkeys, user] = await Promise.all([
        adapter.listAccountsByUserId(userId),
        adapter.listAuthenticatorsByUserId(userId),
        adapter.getUser(userId),
      ])
      const target = linkedAccounts(accounts).find(
        (a) => a.provider === provider && a.providerAccountId === providerAccountId,
      )
      if (!target) throw notFound()
      const others = accounts.filter((a) => a !== target)
      await refuseLast(await countSignInMethods(config, user, passkeys, others))
      await adapter.unlinkAccount({ provider, providerAccountId })
      return moveAccountState(config, userId, "account-unlinked", keep)
    }
  }
}

async function refuseLast(remaining: number): Promise<void> {
  if (remaining > 0) return
  throw new LastSignInMethod(
    "This is the last way to sign in to this account: add another one before removing it",
    { details: { remaining } },
  )
}
