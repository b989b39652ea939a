/**
 * Two-factor sign-in (TOTP and recovery codes), turned on by `twoFactor: TwoFactor({ … })`
 * (`@latchkey/core/two-factor`).
 *
 * Where it joins the kernel: its options (`resolve`, checked once), the adapter methods it needs,
 * `{basePath}/two-factor/*` (the code page, the sign-in step, the settings), the point after a
 * first factor where a code or an enrollment becomes due (`afterFirstFactor`), and the second
 * factor other features ask for (removing a password with a code instead of the password).
 */

import { MissingAdapter, MissingAdapterMethods } from "../../kernel/errors/errors.js"
import type { Feature } from "../../kernel/feature/feature.js"
import { twoFactorAdapterMethods } from "../../kernel/types/adapters.js"
import { checkTwoFactor, resolveTwoFactor } from "./config.js"
import { twoFactorGet, twoFactorPost } from "./routes.js"
import { isEnabledFor, twoFactorContext, verifySecondFactor } from "./service.js"
import { afterFirstFactor } from "./sign-in-step.js"
import type { TwoFactorOptions } from "./types.js"

export const twoFactorFeature: Feature = {
  id: "two-factor",
  logTexts: {
    "two-factor-refused":
      "A second-factor code or recovery code was refused (wrong, already used, or the step expired). Logged every time, as a security log needs each failed attempt; the per-user attempt limit applies. Many in a row for one account: someone may hold its password.",
  },
  perIsolate: "a TOTP code is single-use per isolate and second-factor attempts count per isolate",
  resolve(config, report) {
    const options = (config as { twoFactor?: TwoFactorOptions }).twoFactor
    checkTwoFactor(options, report.problems)
    return resolveTwoFactor(options)
  },
  check({ config }, report) {
    const { adapter } = config
    const missing = missingMethods(adapter)
    if (!adapter) report.problems.push(missingAdapter())
    else if (missing.length > 0) {
      report.problems.push(
        new MissingAdapterMethods(
          `Two-factor sign-in (twoFactor) needs the adapter methods: ${missing.join(", ")}`,
          { details: { missing } },
        ),
      )
    }
  },
  routes: { "two-factor": { GET: twoFactorGet, POST: twoFactorPost } },
  afterFirstFactor,
  secondFactor: {
    isEnabled: (config, userId) => isEnabledFor(twoFactorContext(config), userId),
    async verify(config, userId, input) {
      await verifySecondFactor(twoFactorContext(config), userId, input)
    },
  },
}

function missingMethods(adapter: object | undefined): string[] {
  return twoFactorAdapterMethods.filter(
    (m) => typeof (adapter as Record<string, unknown> | undefined)?.[m] !== "function",
  )
}

function missingAdapter(): MissingAdapter {
  return new MissingAdapter(
    `Two-factor sign-in stores sealed secrets and hashed recovery codes and needs an adapter with ${twoFactorAdapterMethods.join(", ")}`,
  )
}
