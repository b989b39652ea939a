/**
 * The credentials provider: the app checks the posted fields in `authorize`.
 *
 * ```ts
 * import Credentials from "@latchkey/core/providers/credentials"
 *
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   async authorize({ username, password }) {
 *     const user = await findUser(username)
 *     return user && (await verifyPassword(user, password)) ? user : null
 *   },
 * })
 * ```
 *
 * With the `database` session strategy the returned user's `id` must be the id of a user the
 * adapter knows: the session row points at it.
 *
 * @module @latchkey/core/providers/credentials
 */
import { credentialsFeature } from "../features/credentials/index.js"
import { FEATURE } from "../kernel/feature/feature.js"
import type { CredentialsConfig } from "../kernel/types/credentials.js"
import type { CredentialInput } from "../kernel/types/provider.js"

export type { CredentialsConfig } from "../kernel/types/credentials.js"
export type { CredentialInput } from "../kernel/types/provider.js"

/** What the app passes to `Credentials()`: `authorize` is required, the rest has defaults. */
export type CredentialsUserConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> = Partial<Omit<CredentialsConfig<C>, "type" | "authorize">> &
  Pick<CredentialsConfig<C>, "authorize">

/** Build a credentials provider (`id` `"credentials"` unless given another). */
export default function Credentials<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(config: CredentialsUserConfig<C>): CredentialsConfig<C> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as C,
    ...config,
    type: "credentials",
    [FEATURE]: credentialsFeature,
  }
}
