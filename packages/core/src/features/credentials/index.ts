/**
 * Credentials sign-in (`Credentials({ authorize })`): the app checks the posted fields itself.
 * The feature is the app's `authorize` run through the kernel's credentials pipeline (CSRF,
 * limits, the common sign-in path).
 */
import { MissingAuthorize } from "../../kernel/errors/errors.js"
import { type Feature, providersOf } from "../../kernel/feature/feature.js"
import { credentialsSignIn } from "../../kernel/sign-in/credentials-flow.js"
import type { CredentialsConfig } from "../../kernel/types/credentials.js"
import { credentialsEntry } from "./sign-in-entry.js"

export type { CredentialsConfig } from "../../kernel/types/credentials.js"

export const credentialsFeature: Feature = {
  id: "credentials",
  signInPage: () => ({ provider: { render: credentialsEntry } }),
  callback: (ctx, provider) => {
    const credentials = provider as CredentialsConfig
    return credentialsSignIn(ctx, credentials, async (fields, request) =>
      credentials.authorize(fields, request),
    )
  },
  check({ providers }, report) {
    for (const provider of providersOf<CredentialsConfig>(credentialsFeature, providers)) {
      if (typeof provider.authorize !== "function") {
        report.problems.push(
          new MissingAuthorize(`The credentials provider "${provider.id}" has no authorize()`),
        )
      }
    }
  },
}
