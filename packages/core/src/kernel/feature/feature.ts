/**
 * What a feature is, to the kernel (docs/design/kernel-and-features.md): OAuth/OIDC, email
 * links, credentials, password accounts, passkeys, two-factor, the account API, organizations.
 *
 * A feature is one folder under `src/features/` whose entry exports one `Feature` object. The
 * kernel never imports a feature: it finds them in the configuration. A provider object carries
 * its feature (`provider[FEATURE]`, set by the provider's factory: `GitHub()` brings OAuth,
 * `Password()` the password accounts), and so does a value of the configuration that turns a
 * feature on (`twoFactor: TwoFactor({ … })`). An app therefore bundles exactly the features it
 * configures, and a feature meets the others only through the points declared here.
 */

import {
  type ConfigFeature,
  featureOf as configFeatureOf,
  providersOf,
  withFeature,
} from "../config/features.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { AuthAction } from "../http/actions.js"
import type { RequestContext } from "../http/context.js"
import type { Outcome } from "../http/outcome.js"
import type { DatabaseSessions } from "../session/database-sessions.js"
import type { SessionHooks } from "../session/feature-hooks.js"
import type { JWT } from "../token/jwt.js"
import type { AdapterUser } from "../types/adapters.js"
import type { ProviderConfig } from "../types/provider.js"
import type { Account, Profile, User } from "../types/records.js"
import type { SignInAttempt } from "../types/sign-in-attempt.js"

export type { ConfigFeature, ConfigReport, FeatureCheckInput } from "../config/features.js"
export { ALONGSIDE, type CarriesFeature, FEATURE } from "../types/feature-key.js"
export type { SessionHooks }
export { providersOf, withFeature }

export type Handler = (ctx: RequestContext) => Promise<Outcome>

/** What a feature adds to the built-in sign-in page for one of its providers. */
export interface SignInPagePart {
  /** Fields of the provider's entry beyond id, name, kind and URLs (a passkey form's URLs…). */
  provider?: Partial<import("../pages/sign-in-entry.js").PageProvider>
  /** An inline script the entry needs (named in the page's CSP by its hash). */
  script?: string
}

/** A sign-in whose factors are all verified: what the session is issued from. */
export interface VerifiedSignIn {
  user: User
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  /** How the user signed in (RFC 8176): goes into the JWT / the database row. */
  amr: string[]
  callbackUrl: string
  /**
   * JWT sessions completed after a second factor: the token the `jwt` callback built at the
   * first factor (the callback is not run twice).
   */
  token?: JWT
}

/** Who signs in: the user (and account) a verified sign-in resolves to. */
export interface ResolvedLogin {
  user: User
  account: Account | null
  isNewUser: boolean
  /**
   * The account was added to the signed-in user of this request: nobody signed in, and the
   * current session goes on unchanged (no new `auth_time`, no new `amr`, no new session), with
   * the cookies its read set.
   */
  linkedToCurrent?: { readonly cookies: readonly import("../types/cookies.js").ResponseCookie[] }
}

export type LoginResolver = (
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
) => Promise<ResolvedLogin>

/** The second factor of an account, as other features may ask for it. */
export interface SecondFactor {
  /** Whether the user has a confirmed second factor. */
  isEnabled(config: ResolvedConfig, userId: string): Promise<boolean>
  /** Checks a code (or recovery code) of the user's second factor; throws its typed refusal. */
  verify(
    config: ResolvedConfig,
    userId: string,
    input: { code?: string | undefined; recoveryCode?: string | undefined },
  ): Promise<void>
}

/** What a feature adds to the account API (`{basePath}/account`). */
export interface AccountContribution {
  /** Sections of `GET account` (merged into the view). */
  view?(config: ResolvedConfig, userId: string): Promise<Record<string, unknown>>
  /** Changes this feature answers (`POST account/<op>`), and the adapter methods each needs. */
  ops?: Readonly<Record<string, AccountOp>>
}

export interface AccountOp {
  /** Adapter methods the change needs (checked before the recent-sign-in rule). */
  needs?: (config: ResolvedConfig) => readonly string[]
  run(input: AccountOpInput): Promise<readonly import("../types/cookies.js").ResponseCookie[]>
}

export interface AccountOpInput {
  ctx: RequestContext
  userId: string
  keep: import("../grants/account-state.js").KeptSession
  body: Readonly<Record<string, unknown>>
}

/** Everything a user holds that counts as a way in (the last-method rule). */
export interface Holdings {
  user: AdapterUser | null
  passkeys: readonly { credentialID: string }[]
  accounts: readonly { type: string; provider: string }[]
}

export interface Feature extends ConfigFeature {
  /** Endpoints under `basePath` this feature answers, by action and method. */
  readonly routes?: Partial<Record<AuthAction, Partial<Record<"GET" | "POST", Handler>>>>
  /** `POST /signin/<provider>` for its providers. */
  readonly signIn?: (
    ctx: RequestContext,
    provider: ProviderConfig,
    input: { callbackUrl: string },
  ) => Promise<Outcome>
  /** `GET|POST /callback/<provider>` for its providers. */
  readonly callback?: (ctx: RequestContext, provider: ProviderConfig) => Promise<Outcome>
  /** What the built-in sign-in page shows of one of its providers, beyond the kernel's entry. */
  readonly signInPage?: (ctx: RequestContext, provider: ProviderConfig) => SignInPagePart
  /**
   * The adapter's feature (`features/adapter/`, brought by the adapter): who signs in, found,
   * linked, created or claimed among the adapter's rows. Without it the provider's user is
   * taken as given.
   */
  readonly resolveLogin?: LoginResolver
  /** The adapter's feature: database sessions, rows of the adapter (`session.strategy: "database"`). */
  readonly databaseSessions?: DatabaseSessions
  /** After a verified first factor: an outcome here (a second factor is due) replaces the session. */
  readonly afterFirstFactor?: (
    ctx: RequestContext,
    provider: ProviderConfig,
    signIn: VerifiedSignIn,
  ) => Promise<Outcome | undefined>
  /** The second factor other features may ask for. */
  readonly secondFactor?: SecondFactor
  /** The account API's sections and changes of this feature. */
  readonly account?: AccountContribution
  /** The ways in this feature gives `holdings.user` (the last-method rule). */
  readonly signInMethods?: (config: ResolvedConfig, holdings: Holdings) => Promise<number>
  /** Session hooks (provider tokens riding in a JWT session, their refresh errors). */
  readonly session?: SessionHooks
  /**
   * Before a user row is deleted (the operator functions): what the feature holds of the user
   * is settled (organizations pass their ownership on). Throws to refuse the deletion, saying why.
   */
  readonly beforeUserRemoved?: (config: ResolvedConfig, userId: string) => Promise<void>
}

/** The features of `config`, as the request-time code calls them. */
export function featuresOf(config: Pick<ResolvedConfig, "features">): readonly Feature[] {
  // Every feature is a whole `Feature`; the configuration types see only its configuration part.
  return config.features as readonly Feature[]
}

/** How the adapter's feature resolves who signs in, if an adapter brought it. */
export function adapterLoginOf(
  config: Pick<ResolvedConfig, "features">,
): LoginResolver | undefined {
  for (const feature of featuresOf(config)) if (feature.resolveLogin) return feature.resolveLogin
  return undefined
}

/** The feature a provider object or a configuration value carries, if any. */
export const featureOf: (value: unknown) => Feature | undefined = configFeatureOf as never
