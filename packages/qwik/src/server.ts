/**
 * The server half of `@latchkey/qwik`: what the loader, action and middleware bodies of
 * `QwikAuth$` run. `qwik-auth.ts` loads it with a dynamic import from code that only runs on the
 * server, so nothing here (nor `@latchkey/core`) is part of an app's client build.
 */
import type { QRL } from "@builder.io/qwik"
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/core"
import { type AccountOp, accountAction, loadAccount, requireRecentSignIn } from "./account.js"
import type { AccountData, RecentSignIn, RequireRecentAuthOptions } from "./account-types.js"
import { signIn, signOut, updateSession } from "./actions.js"
import { type QwikAuthConfigFn, resolveConfig } from "./config.js"
import { handleRequest as handle } from "./on-request.js"
import { type PasswordOp, passwordAction } from "./password.js"
import type { SignInInput, SignOutInput, UpdateSessionInput } from "./schemas.js"
import { loadSession } from "./session.js"
import { hasSession, readSessionFromMap } from "./shared-map.js"

export {
  hasOrganizationPermissionBody,
  loadOrganizations,
  organizationAction,
  requireOrganizationPermissionBody,
} from "./organizations-server.js"
export {
  loadTwoFactorStatus,
  twoFactorSettingsAction,
  verifyTwoFactorAction,
} from "./two-factor-server.js"

type ConfigQrl = QRL<QwikAuthConfigFn> | undefined

/** `onRequest` of the plugin. */
export async function handleRequest(event: RequestEventCommon, configQrl: ConfigQrl) {
  await handle(event, await resolveConfig(event, configQrl))
}

/** `useSession`: read lazily when the app did not export `onRequest`. */
export async function loadSessionValue(
  event: RequestEventCommon,
  configQrl: ConfigQrl,
): Promise<Session | null> {
  if (!hasSession(event)) await loadSession(event, await resolveConfig(event, configQrl))
  return readSessionFromMap(event)
}

export async function signInAction(
  event: RequestEventCommon,
  configQrl: ConfigQrl,
  input: SignInInput,
): Promise<void> {
  await signIn(event, await resolveConfig(event, configQrl), input)
}

export async function signOutAction(
  event: RequestEventCommon,
  configQrl: ConfigQrl,
  input: SignOutInput,
): Promise<void> {
  await signOut(event, await resolveConfig(event, configQrl), input)
}

export async function updateSessionAction(
  event: RequestEventAction,
  configQrl: ConfigQrl,
  input: UpdateSessionInput,
) {
  return updateSession(event, await resolveConfig(event, configQrl), input)
}

/** `useAccount`. */
export async function loadAccountValue(
  event: RequestEventCommon,
  configQrl: ConfigQrl,
): Promise<AccountData | null> {
  return loadAccount(event, await resolveConfig(event, configQrl))
}

/** The account actions (`useRenamePasskey`, …). */
export async function accountActionBody(
  event: RequestEventAction,
  configQrl: ConfigQrl,
  op: AccountOp,
  input: Record<string, string>,
) {
  return accountAction(event, await resolveConfig(event, configQrl), op, input)
}

/** The password actions that need no session (`useSignUp`, …, `useResetPassword`). */
export async function passwordActionBody(
  event: RequestEventAction,
  configQrl: ConfigQrl,
  op: PasswordOp,
  input: Record<string, string | undefined>,
) {
  return passwordAction(event, await resolveConfig(event, configQrl), op, input)
}

/** `requireRecentAuth(event, opts)`. */
export async function requireRecentAuthBody(
  event: RequestEventCommon,
  configQrl: ConfigQrl,
  opts: RequireRecentAuthOptions,
): Promise<RecentSignIn> {
  return requireRecentSignIn(event, await resolveConfig(event, configQrl), opts)
}
