/**
 * `QwikAuth$`: everything a `src/routes/plugin@auth.ts` exports.
 *
 * This module is what the browser sees of the binding, so it imports nothing that runs on the
 * server. Two rules keep the app's config (and the adapters, drivers and secrets it imports) out
 * of the client build:
 *
 * - The loader and action bodies load `./server.js` with a dynamic import (`server-half.ts`).
 *   Qwik's optimizer drops `routeLoader$`/`globalAction$` bodies from client builds, and with
 *   them that import; under Vite's dev server the browser never fetches a module it does not
 *   execute.
 * - Those bodies do not capture `configQrl`. A stripped segment keeps its captures, which would
 *   keep the app's config segment in the client build; instead they find the config through
 *   `registered` (set on the server only) or the request's `sharedMap` (set by `onRequest`).
 *   In a client build `configQrl` is then unused.
 *
 * The config function itself is a segment of the app's module, which Qwik's optimizer writes to
 * the client build unless the call's imported name is server-only (`routeAuth$`); `latchkey()`
 * in `vite.config.ts` (`vite.ts`) imports `QwikAuth$` under that name.
 */
// biome-ignore-all lint/correctness/useQwikLoaderLocation: a library defines loaders and actions for the app, which re-exports them from src/routes/plugin@auth.ts (route boundary)
import { implicit$FirstArg, type QRL } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import { globalAction$, type RequestEventCommon, routeLoader$ } from "@builder.io/qwik-city"
import type { AccountData } from "./account-types.js"
import type { QwikAuthConfigFn } from "./config.js"
import { serverZod } from "./input-validation.js"
import { registered } from "./registered-config.js"
import { actionOptions, sessionLoaderOptions } from "./route-options.js"
import {
  changeEmailSchema,
  changePasswordSchema,
  emailSchema,
  noInputSchema,
  passkeyIdSchema,
  removePasswordSchema,
  renamePasskeySchema,
  resetPasswordSchema,
  sessionIdSchema,
  setPasswordSchema,
  signInSchema,
  signOutSchema,
  signUpSchema,
  unlinkAccountSchema,
  updateSessionSchema,
} from "./schemas.js"
import { server } from "./server-half.js"
import type { QwikAuthConfig, SessionOf } from "./types.js"

/**
 * What an app built without `latchkey()` in `vite.config.ts` is told, once per server process:
 * its client build then holds the config (see `vite.ts`). The server is the only place that can
 * tell, because the plugin is what turns `QwikAuth$` into `routeAuth$`.
 */
const MISSING_VITE_PLUGIN =
  "[latchkey][warn][vite-plugin-missing] QwikAuth$ is built without Latchkey's Vite plugin, so " +
  "the client build (dist/build) contains your auth config and everything it imports (adapter, " +
  "database driver, authorize() code). Add this line to vite.config.ts (or run `npx latchkey " +
  'vite`):\n  import { latchkey } from "@latchkey/qwik/vite"\nand put latchkey() first in ' +
  "`plugins: [...]`, or call routeAuth$ instead of QwikAuth$ (the only fix on Qwik 2: " +
  "@latchkey/qwik2 has no Vite plugin)."

let warnedMissingPlugin = false

/**
 * The `Qrl` form of {@link QwikAuth$}. The optimizer calls it for `QwikAuth$` in an app built
 * without `latchkey()`; with the plugin it calls {@link routeAuthQrl}.
 *
 * @public
 */
export function QwikAuthQrl<C extends QwikAuthConfig>(configQrl: QRL<QwikAuthConfigFn<C>>) {
  if (isServer && !warnedMissingPlugin) {
    warnedMissingPlugin = true
    console.warn(MISSING_VITE_PLUGIN)
  }
  return authQrl(configQrl)
}

/** `QwikAuth$`/`routeAuth$` once the optimizer has turned the config function into a QRL. */
function authQrl<C extends QwikAuthConfig>(configQrl: QRL<QwikAuthConfigFn<C>>) {
  if (isServer) registered.configQrl = configQrl as QRL<QwikAuthConfigFn>

  /** The current session, or `null` when signed out. */
  const useSession = routeLoader$(
    async (event): Promise<SessionOf<C> | null> =>
      (await server()).loadSessionValue(
        event,
        registered.configQrl,
      ) as Promise<SessionOf<C> | null>,
    sessionLoaderOptions(),
  )

  /**
   * Sign in: credentials directly, OAuth/OIDC and email through their flow. Ends in a
   * navigation: to the provider, to `redirectTo`, or to the sign-in/error page with `?error=`.
   */
  const useSignIn = globalAction$(
    async (input, event) => (await server()).signInAction(event, registered.configQrl, input),
    actionOptions(serverZod("useSignIn")(signInSchema), useSession),
  )

  /** Clear the session, then navigate to `redirectTo` (default: the current page). */
  const useSignOut = globalAction$(
    async (input, event) => (await server()).signOutAction(event, registered.configQrl, input),
    actionOptions(serverZod("useSignOut")(signOutSchema), useSession),
  )

  /** Run the session `update` trigger with `data`; returns the updated session. */
  const useUpdateSession = globalAction$(
    async (input, event) =>
      (await server()).updateSessionAction(event, registered.configQrl, input),
    actionOptions(serverZod("useUpdateSession")(updateSessionSchema), useSession),
  )

  /**
   * The signed-in user's account (`GET <basePath>/account`): passkeys, devices, linked sign-in
   * methods and whether the sign-in is recent enough for changes; `null` when signed out.
   */
  const useAccount = routeLoader$(
    async (event): Promise<AccountData | null> =>
      (await server()).loadAccountValue(event, registered.configQrl),
    sessionLoaderOptions(),
  )

  // The account actions return `{ ok: true }` or `fail()` with a typed `error` (see
  // `account.ts`); every one needs a recent sign-in, which the core checks.

  /** Rename a passkey of the signed-in user: `{ id, name }`. */
  const useRenamePasskey = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "passkey-rename", input),
    actionOptions(serverZod("useRenamePasskey")(renamePasskeySchema), useAccount),
  )

  /** Delete a passkey of the signed-in user: `{ id }` (refused for the last way to sign in). */
  const useDeletePasskey = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "passkey-delete", input),
    actionOptions(serverZod("useDeletePasskey")(passkeyIdSchema), useAccount),
  )

  /** End one session of the signed-in user, on whatever device: `{ id }` from `useAccount`. */
  const useRevokeSession = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "session-revoke", input),
    actionOptions(serverZod("useRevokeSession")(sessionIdSchema), useAccount, useSession),
  )

  /** End every session of the signed-in user except this one. */
  const useRevokeOtherSessions = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(
        event,
        registered.configQrl,
        "sessions-revoke-others",
        input,
      ),
    actionOptions(serverZod("useRevokeOtherSessions")(noInputSchema), useAccount),
  )

  /** Unlink a sign-in method: `{ provider, providerAccountId }` (refused for the last one). */
  const useUnlinkAccount = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "account-unlink", input),
    actionOptions(serverZod("useUnlinkAccount")(unlinkAccountSchema), useAccount),
  )

  // Password accounts (the `Password` provider). Sign-up, resend and forgot answer `{ ok: true }`
  // whatever the address; a reset signs this browser in and returns `{ ok: true, url }`.

  /** Create an account: `{ email, password, name? }`; the verification link is mailed. */
  const useSignUp = globalAction$(
    async (input, event) =>
      (await server()).passwordActionBody(event, registered.configQrl, "signup", input),
    actionOptions(serverZod("useSignUp")(signUpSchema)),
  )

  /** Mail the verification link again: `{ email }`. */
  const useResendVerification = globalAction$(
    async (input, event) =>
      (await server()).passwordActionBody(event, registered.configQrl, "resend", input),
    actionOptions(serverZod("useResendVerification")(emailSchema)),
  )

  /** Mail a reset link: `{ email }`. */
  const useForgotPassword = globalAction$(
    async (input, event) =>
      (await server()).passwordActionBody(event, registered.configQrl, "forgot", input),
    actionOptions(serverZod("useForgotPassword")(emailSchema)),
  )

  /** Set a new password from a reset link: `{ token, uid, email, password }`; signs in. */
  const useResetPassword = globalAction$(
    async (input, event) =>
      (await server()).passwordActionBody(event, registered.configQrl, "reset", input),
    actionOptions(serverZod("useResetPassword")(resetPasswordSchema), useSession),
  )

  /** Change the password: `{ currentPassword, password }`; the other sessions end. */
  const useChangePassword = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "password-change", input),
    actionOptions(serverZod("useChangePassword")(changePasswordSchema), useAccount, useSession),
  )

  /** Add a password to an account without one: `{ password }`. */
  const useSetPassword = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(event, registered.configQrl, "password-set", input),
    actionOptions(serverZod("useSetPassword")(setPasswordSchema), useAccount),
  )

  /**
   * Remove the password: `{ currentPassword }` (or `{ code }` of the second factor when it is on);
   * refused for the last way to sign in. Every other session ends.
   */
  const useRemovePassword = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(
        event,
        registered.configQrl,
        "password-remove",
        withoutUndefined(input),
      ),
    actionOptions(serverZod("useRemovePassword")(removePasswordSchema), useAccount),
  )

  /** Move the account to another address: `{ email, currentPassword? }`; a link proves it. */
  const useChangeEmail = globalAction$(
    async (input, event) =>
      (await server()).accountActionBody(
        event,
        registered.configQrl,
        "email-change",
        withoutUndefined(input),
      ),
    actionOptions(serverZod("useChangeEmail")(changeEmailSchema), useAccount),
  )

  /** Plugin middleware: auth endpoints under `basePath`, and the session for every other page. */
  const onRequest = isServer
    ? async (event: RequestEventCommon): Promise<void> =>
        (await server()).handleRequest(event, configQrl as QRL<QwikAuthConfigFn>)
    : async (): Promise<void> => {}

  return {
    onRequest,
    useSession,
    useSignIn,
    useSignOut,
    useUpdateSession,
    useAccount,
    useRenamePasskey,
    useDeletePasskey,
    useRevokeSession,
    useRevokeOtherSessions,
    useUnlinkAccount,
    useSignUp,
    useResendVerification,
    useForgotPassword,
    useResetPassword,
    useChangePassword,
    useSetPassword,
    useRemovePassword,
    useChangeEmail,
  }
}

/** An action input without its absent optional fields (the account calls take strings only). */
function withoutUndefined(input: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

/**
 * Set up Latchkey for a Qwik City app. `configFn` receives the request event and returns the
 * config; `basePath` defaults to `/auth`. It runs on the server only; with `latchkey()` from
 * `@latchkey/qwik/vite` in `vite.config.ts`, neither it nor what it imports is written to the
 * client build (without it, the server warns once, naming that line).
 *
 * ```ts
 * // src/routes/plugin@auth.ts
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => config)
 * ```
 *
 * @public
 */
export const QwikAuth$: <C extends QwikAuthConfig>(
  configFn: QwikAuthConfigFn<C>,
) => ReturnType<typeof QwikAuthQrl<C>> = /*#__PURE__*/ implicit$FirstArg(QwikAuthQrl)

/**
 * The `Qrl` form of {@link routeAuth$}.
 *
 * @public
 */
export const routeAuthQrl: typeof QwikAuthQrl = authQrl

/**
 * {@link QwikAuth$} under a name Qwik's optimizer treats as server-only (like `routeLoader$`):
 * the client build replaces `configFn` with an empty placeholder, so neither it nor anything it
 * imports is written to the client build. `latchkey()` from `@latchkey/qwik/vite` makes
 * `QwikAuth$` calls compile to this; without it their config is written to the client build.
 *
 * @public
 */
export const routeAuth$: typeof QwikAuth$ = /*#__PURE__*/ implicit$FirstArg(routeAuthQrl)
