/**
 * Email (magic link) sign-in, by the email providers of `@latchkey/core/providers/*`
 * (`Nodemailer`, `Email`, `Resend`): a single-use link mailed to the address, confirmed by a
 * page whose button signs in (mail scanners that open links consume nothing).
 *
 * Where it joins the kernel: `POST /signin/<id>` (the link sent), `/callback/<id>` (the confirm
 * page and the sign-in), the adapter methods it needs. The links are the kernel's mailed grants
 * (`kernel/grants/link.ts`), bound to the account's state.
 */
import { MissingAdapter } from "../../kernel/errors/errors.js"
import type { Feature } from "../../kernel/feature/feature.js"
import { emailCallback, emailSignIn } from "./actions.js"
import { emailEntry } from "./sign-in-entry.js"

const EMAIL_METHODS = ["createVerificationToken", "useVerificationToken", "getUserByEmail"] as const

export const emailFeature: Feature = {
  id: "email",
  signIn: emailSignIn,
  callback: emailCallback,
  signInPage: () => ({ provider: { render: emailEntry } }),
  adapterNeeds: () => ({
    methods: EMAIL_METHODS,
    withoutAdapter: new MissingAdapter(
      "Email sign-in stores verification tokens and needs an adapter",
    ),
  }),
}
