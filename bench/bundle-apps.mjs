// The Workers of `npm run bench bundle` (bench/bundle.mjs): for each app, the source of a tiny
// Cloudflare Worker entry whose whole job is `Auth(request, config)`, for Latchkey and, where
// Auth.js (`@auth/core`) has the same config, for Auth.js. Secrets, client ids and the like are
// stubs: nothing here is ever sent anywhere. `path` is the GET the start-up timing sends.
//
// Where a config needs an adapter, both sides get the same stub (a Proxy that has every method,
// each answering null; Latchkey's given the code that serves it, as its adapters carry it): the
// bench weighs the auth library, not a database driver. The demo's own
// adapter is PGlite on Node, which no Worker runs.
//
// A new feature configured by a config key (two-factor, organizations) is one more entry in
// CONFIG_KEY_FEATURES.

const SECRET = JSON.stringify("bench-secret-0123456789abcdef0123456789abcdef")
const STUB_ADAPTER =
  'new Proxy({}, { has: (_, name) => name !== "then", get: (target, name) => (typeof name === "symbol" ? target[name] : name === "then" ? undefined : async () => null) })'
const STUB_MAIL = "async () => {}"
const FROM = JSON.stringify("Bench <auth@example.test>")
const OAUTH_CLIENT = '{ clientId: "bench-client", clientSecret: "bench-client-secret" }'

/** `import X from "<pkg>/providers/<id>"` for each provider id, under its conventional name. */
const providerImports = (pkg, names) =>
  Object.entries(names).map(([name, id]) => `import ${name} from "${pkg}/providers/${id}"`)

/**
 * Latchkey's side of the stub adapter: as a Latchkey adapter does, it carries the code that
 * serves it (`withAdapterFeature`, what `DrizzleAdapter(…)` and `PostgresAdapter(…)` return).
 */
function latchkeyAdapter(options) {
  if (!options?.includes(STUB_ADAPTER)) return { options, imports: [] }
  return {
    options: options.replace(STUB_ADAPTER, `withAdapterFeature(${STUB_ADAPTER})`),
    imports: ['import { withAdapterFeature } from "@latchkey/core/adapters"'],
  }
}

/** A Worker that answers every request with `Auth(request, config)`. */
function authWorker(pkg, { providers, imports: given = [], options: raw, list }) {
  const { options, imports: adapterImports } =
    pkg === "@latchkey/core" ? latchkeyAdapter(raw) : { options: raw, imports: [] }
  const imports = [...given, ...adapterImports]
  return [
    `import { Auth } from "${pkg}"`,
    ...providerImports(pkg, providers),
    ...imports,
    "",
    "const config = {",
    `  secret: ${SECRET},`,
    "  trustHost: true,",
    ...(options ? [`  ${options}`] : []),
    `  providers: [${list}],`,
    "}",
    "",
    "export default { fetch(request, env) { return Auth(request, config) } }",
    "",
  ].join("\n")
}

/**
 * An app: `name`, the GET `path` its start-up is timed with, and the Workers of `latchkey` and
 * `authjs` (`null`: Auth.js has no such config), each given as `{ providers, list, options,
 * imports }`: `providers` maps an import name to a provider id, `list` is the providers array's
 * items, `options` further config keys.
 */
const app = (name, latchkey, authjs, path = "/auth/providers") => ({
  name,
  path,
  latchkey: latchkey && authWorker("@latchkey/core", latchkey),
  authjs: authjs && authWorker("@auth/core", authjs),
})

const github = {
  providers: { GitHub: "github" },
  list: `GitHub(${OAUTH_CLIENT})`,
}

/** GitHub plus config keys (`options`), and the `imports` they need. */
const githubWith = (options, imports = []) => ({ ...github, options, imports })

/** The two-factor feature's config key comes from its factory (it brings the feature). */
const TWO_FACTOR_IMPORT = 'import { TwoFactor } from "@latchkey/core/two-factor"'
/** So does the organizations feature's. */
const ORGANIZATIONS_IMPORT = 'import { Organizations } from "@latchkey/core/organizations"'

const credentials = {
  providers: { Credentials: "credentials" },
  list: "Credentials({ credentials: { email: {}, password: {} }, authorize: async () => null })",
}

const githubAndEmailLinks = {
  providers: { GitHub: "github", Resend: "resend" },
  list: `GitHub(${OAUTH_CLIENT}), Resend({ apiKey: "re_bench", from: ${FROM} })`,
  options: `adapter: ${STUB_ADAPTER},`,
}

const databaseSessions = githubWith(`adapter: ${STUB_ADAPTER}, session: { strategy: "database" },`)

/** A Worker that decodes the `token` query parameter (none: `null`) with `decode` alone. */
const tokenWorker = (pkg) =>
  [
    `import { decode } from "${pkg}/jwt"`,
    "",
    "export default {",
    "  async fetch(request) {",
    '    const token = new URL(request.url).searchParams.get("token") ?? ""',
    `    return Response.json(await decode({ token, secret: ${SECRET}, salt: "authjs.session-token" }))`,
    "  },",
    "}",
    "",
  ].join("\n")

/**
 * Latchkey features turned on by a config key rather than a provider, each on top of the
 * GitHub-only app: what the row adds over "GitHub only" is that feature's weight.
 */
const CONFIG_KEY_FEATURES = [
  app(
    "GitHub + `twoFactor` (stub adapter)",
    githubWith(`adapter: ${STUB_ADAPTER}, twoFactor: TwoFactor({ issuer: "Bench" }),`, [
      TWO_FACTOR_IMPORT,
    ]),
    null,
  ),
  app(
    "GitHub + `organizations` (stub adapter)",
    githubWith(
      `adapter: ${STUB_ADAPTER}, organizations: Organizations({ sendInvitation: ${STUB_MAIL} }),`,
      [ORGANIZATIONS_IMPORT],
    ),
    null,
  ),
  app(
    "GitHub + the account API (`account: Account()`)",
    githubWith("account: Account({ rateLimit: false }),", [
      'import { Account } from "@latchkey/core/account"',
    ]),
    null,
  ),
  app(
    'GitHub + `session.revocation: "strict"`',
    githubWith('session: { strategy: "jwt", revocation: "strict" },'),
    null,
  ),
  app('GitHub + `session.strategy: "database"` (stub adapter)', databaseSessions, databaseSessions),
]

/**
 * The demo's config (examples/qwik-app/src/auth.ts) without the Qwik parts: every provider it
 * can have (password, email links and passkeys, the local OpenID Provider with refresh, GitHub,
 * Google), its pages, two-factor, organizations, database sessions and session callback; mail goes to stubs as
 * the demo's dev mailbox does, env values are stubs, and the adapter is the stub.
 */
const DEMO = {
  providers: {
    Password: "password",
    Email: "email",
    GitHub: "github",
    Google: "google",
    Passkey: "passkey",
  },
  imports: [
    'import { oidcProvider, standardOidcProfile } from "@latchkey/core/providers/oauth"',
    TWO_FACTOR_IMPORT,
    ORGANIZATIONS_IMPORT,
  ],
  list: [
    `Password({ from: ${FROM}, sendPasswordMail: ${STUB_MAIL} })`,
    `Email({ from: ${FROM}, sendVerificationRequest: ${STUB_MAIL} })`,
    'oidcProvider({ id: "local-oidc", name: "Local OpenID", profile: standardOidcProfile }, { refresh: true, issuer: "https://oidc.example.test", clientId: "bench-client", clientSecret: "bench-client-secret" })',
    `GitHub(${OAUTH_CLIENT})`,
    `Google(${OAUTH_CLIENT})`,
    "Passkey()",
  ].join(", "),
  options: [
    "experimental: { enableWebAuthn: true },",
    `adapter: ${STUB_ADAPTER},`,
    'session: { strategy: "database" },',
    'twoFactor: TwoFactor({ issuer: "Latchkey demo" }),',
    `organizations: Organizations({ roles: { billing: { invoice: ["read", "pay"] } }, sendInvitation: ${STUB_MAIL} }),`,
    'pages: { signIn: "/signin/", verifyRequest: "/verify-request/", signUp: "/signup/", forgotPassword: "/forgot/", resetPassword: "/reset/", passwordSent: "/verify-request/?password=1" },',
    "callbacks: { async session({ session }) { return session } },",
  ].join("\n  "),
}

export const APPS = [
  app("GitHub only", github, github),
  app("Credentials only", credentials, credentials),
  app(
    "the built-in `Password` provider only (stub adapter)",
    {
      providers: { Password: "password" },
      list: `Password({ from: ${FROM}, sendPasswordMail: ${STUB_MAIL} })`,
      options: `adapter: ${STUB_ADAPTER},`,
    },
    null,
  ),
  {
    name: "the token module only (`decode`)",
    path: "/",
    latchkey: tokenWorker("@latchkey/core"),
    authjs: tokenWorker("@auth/core"),
  },
  app("GitHub + email links (`Resend`, stub adapter)", githubAndEmailLinks, githubAndEmailLinks),
  app("the demo's config (examples/qwik-app)", DEMO, null),
  ...CONFIG_KEY_FEATURES,
]
