/**
 * Email and password accounts run by the core (`Password()` from
 * `@latchkey/core/providers/password`): sign-up with a verification link, sign-in, forgot and
 * reset, and the password and the address on the account page.
 *
 * Where it joins the kernel: `/callback/<id>` (the sign-in, through the kernel's credentials
 * pipeline), `{basePath}/password/*` (sign-up, links, their pages), the sign-in page's links and
 * "send the link again", the configuration check, the account API's `password` section and
 * changes, and the password as a way in (the last-method rule).
 */

import { type Feature, providersOf } from "../../kernel/feature/feature.js"
import { actionUrl } from "../../kernel/http/context.js"
import { credentialsSignIn } from "../../kernel/sign-in/credentials-flow.js"
import {
  PASSWORD_ACCOUNT_OPS,
  type PasswordAccountOp,
  runPasswordAccountOp,
} from "./account-ops.js"
import { passwordGet, passwordPost } from "./actions.js"
import { checkPasswordProvider, type PasswordConfig } from "./config.js"
import { authorizePassword } from "./sign-in.js"
import { passwordEntry } from "./sign-in-entry.js"
import { passwordPageUrl } from "./urls.js"

/** The adapter methods each account change of password accounts needs. */
const OP_NEEDS: Record<PasswordAccountOp, readonly string[]> = {
  "password-set": ["getUser", "getPasswordHash", "setPasswordHash"],
  "password-change": ["getUser", "getPasswordHash", "setPasswordHash"],
  "password-remove": [
    "getUser",
    "getPasswordHash",
    "deletePasswordHash",
    "listAuthenticatorsByUserId",
    "listAccountsByUserId",
  ],
  "email-change": ["getUser", "getUserByEmail", "getPasswordHash", "createVerificationToken"],
}

export const passwordFeature: Feature = {
  id: "password",
  logTexts: {
    "password-refused":
      "A password action other than a sign-in (sign-up, reset, change, removal) was refused for a reason the user can fix: a new password the rules refuse, an expired link, no session. A user event, logged at debug.",
  },
  routes: { password: { GET: passwordGet, POST: passwordPost } },
  callback: (ctx, provider) =>
    credentialsSignIn(ctx, provider as PasswordConfig, (fields) =>
      authorizePassword(ctx, provider as PasswordConfig, fields),
    ),
  signInPage: (ctx) => ({
    provider: {
      render: passwordEntry({
        signUpUrl: passwordPageUrl(ctx, "signup"),
        forgotUrl: passwordPageUrl(ctx, "forgot"),
        resendUrl: actionUrl(ctx, "password", "resend"),
      }),
    },
  }),
  check({ config, providers }, report) {
    for (const provider of providersOf<PasswordConfig>(passwordFeature, providers)) {
      checkPasswordProvider(provider, config.adapter, report.problems)
    }
  },
  account: {
    async view(config, userId) {
      const getPasswordHash = config.adapter?.getPasswordHash
      if (!getPasswordHash) return {}
      return { password: { set: (await getPasswordHash.call(config.adapter, userId)) !== null } }
    },
    ops: Object.fromEntries(
      PASSWORD_ACCOUNT_OPS.map((op) => [
        op,
        {
          needs: () => OP_NEEDS[op],
          run: (input) => runPasswordAccountOp(op, input),
        },
      ]),
    ),
  },
  async signInMethods(config, { user }) {
    const getPasswordHash = config.adapter?.getPasswordHash
    if (!user || !getPasswordHash) return 0
    return (await getPasswordHash.call(config.adapter, user.id)) === null ? 0 : 1
  },
}
