/**
 * Two-factor sign-in for Qwik City: a loader and actions usable with `<Form>` with or without
 * JavaScript. Export them from `src/routes/plugin@auth.ts` next to `QwikAuth$`'s:
 *
 * ```ts
 * export const {
 *   useTwoFactorStatus, useEnrollTwoFactor, useConfirmTwoFactor,
 *   useDisableTwoFactor, useRegenerateRecoveryCodes, useVerifyTwoFactor,
 * } = twoFactorActions()
 * ```
 *
 * They find the config through the request (the plugin's `onRequest` parks it there), so they
 * capture nothing of the app's config, and their bodies load the server half on demand.
 */
// biome-ignore-all lint/correctness/useQwikLoaderLocation: a library defines loaders and actions for the app, which re-exports them from src/routes/plugin@auth.ts (route boundary)
import { globalAction$, routeLoader$ } from "@builder.io/qwik-city"
import type { TwoFactorStatus } from "@latchkey/core"
import { serverZod } from "./input-validation.js"
import { actionOptions, sessionLoaderOptions } from "./route-options.js"
import { server } from "./server-half.js"

/** @public */
export function twoFactorActions() {
  /** The signed-in user's second factor (`enabled`, codes left, `required`), or `null`. */
  const useTwoFactorStatus = routeLoader$(
    async (event): Promise<TwoFactorStatus | null> => (await server()).loadTwoFactorStatus(event),
    // One user's data: never in a shared cache (Qwik 2; nothing on Qwik City 1).
    sessionLoaderOptions(),
  )

  /** Starts enrollment: returns `{ uri, qrSvg, secret }` (needs a recent sign-in). */
  const useEnrollTwoFactor = globalAction$(
    async (_input, event) => (await server()).twoFactorSettingsAction(event, "enroll", {}),
    actionOptions(serverZod("useEnrollTwoFactor")({}), useTwoFactorStatus),
  )

  /** Confirms enrollment with the first code: returns `{ recoveryCodes }`, shown once. */
  const useConfirmTwoFactor = globalAction$(
    async (input, event) =>
      (await server()).twoFactorSettingsAction(event, "confirm", { code: input.code }),
    actionOptions(
      serverZod("useConfirmTwoFactor")((z) => ({ code: z.string().trim().min(6).max(16) })),
      useTwoFactorStatus,
    ),
  )

  /** Turns two-factor sign-in off (needs a recent sign-in with the second factor). */
  const useDisableTwoFactor = globalAction$(
    async (_input, event) => (await server()).twoFactorSettingsAction(event, "disable", {}),
    actionOptions(serverZod("useDisableTwoFactor")({}), useTwoFactorStatus),
  )

  /** A new set of recovery codes, replacing the old (needs a recent sign-in with the factor). */
  const useRegenerateRecoveryCodes = globalAction$(
    async (_input, event) => (await server()).twoFactorSettingsAction(event, "regenerate", {}),
    actionOptions(serverZod("useRegenerateRecoveryCodes")({}), useTwoFactorStatus),
  )

  /** The code of a pending sign-in, for an app's own `pages.twoFactor`. */
  const useVerifyTwoFactor = globalAction$(
    async (input, event) => (await server()).verifyTwoFactorAction(event, input),
    actionOptions(
      serverZod("useVerifyTwoFactor")((z) => ({
        code: z.string().trim().max(16).optional(),
        recoveryCode: z.string().trim().max(32).optional(),
      })),
      useTwoFactorStatus,
    ),
  )

  return {
    useTwoFactorStatus,
    useEnrollTwoFactor,
    useConfirmTwoFactor,
    useDisableTwoFactor,
    useRegenerateRecoveryCodes,
    useVerifyTwoFactor,
  }
}
