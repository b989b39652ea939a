// The files `npx latchkey init` writes, for the methods and session storage chosen: the same
// files as the README's quick start (with PGlite, `src/lib/db.ts` is its module, as
// `e2e/fixtures/quickstart` has it), with each chosen provider in `plugin@auth.ts` and an
// account page.

/** Where the PGlite database lives, relative to the app: `npx latchkey migrate` reads it back. */
export const PGLITE_DIR = "./.data/auth"

/**
 * @typedef {{ methods: string[]; sessions: string;
 *   target?: string; project: import("./project.mjs").Project }} Choice
 */

/** The import and the call of each method's provider; `env` is Qwik's request env. */
const PROVIDERS = {
  password: {
    imports: ['import Password from "@latchkey/core/providers/password"'],
    call: [
      "// Sign-up with a confirmation mail, sign-in, reset and email change (built-in pages).",
      "Password(devMail ? { ...mail, sendPasswordMail: devMailbox.sendPasswordMail } : mail),",
    ],
  },
  passkey: {
    imports: ['import Passkey from "@latchkey/core/providers/passkey"'],
    call: ["Passkey(),"],
  },
  email: {
    imports: ['import Email from "@latchkey/core/providers/email"'],
    call: [
      "// Sign-in links by mail.",
      "Email(devMail ? { ...mail, sendVerificationRequest: devMailbox.sendVerificationRequest } : mail),",
    ],
  },
  github: {
    imports: ['import GitHub from "@latchkey/core/providers/github"'],
    call: ["GitHub(), // AUTH_GITHUB_ID, AUTH_GITHUB_SECRET"],
  },
  google: {
    imports: ['import Google from "@latchkey/core/providers/google"'],
    call: ["Google(), // AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET"],
  },
  oidc: {
    imports: ['import OAuth from "@latchkey/core/providers/oauth"'],
    call: [
      "// Any OpenID Provider: AUTH_OIDC_ISSUER, AUTH_OIDC_ID, AUTH_OIDC_SECRET.",
      "OAuth({",
      '  id: "oidc",',
      '  name: "OpenID Connect",',
      '  type: "oidc",',
      '  issuer: env.get("AUTH_OIDC_ISSUER"),',
      '  clientId: env.get("AUTH_OIDC_ID"),',
      '  clientSecret: env.get("AUTH_OIDC_SECRET"),',
      "}),",
    ],
  },
}

/**
 * Whether the account page shows the password and address forms: with the Password provider.
 * @param {Choice} choice
 */
function hasAccountForms({ methods }) {
  return methods.includes("password")
}

/**
 * Whether the app keeps accounts (any database): then the account page lists the ways in and
 * offers two-factor sign-in.
 * @param {Choice} choice
 */
function hasAccounts({ sessions }) {
  return sessions !== "jwt"
}

/**
 * Whether the app offers organizations (the account page's section): with accounts, and mail to
 * send the invitations through (the dev mailbox in development, the app's mail server else). An
 * app whose only ways in send no mail (passkeys, OAuth) has no mail set-up to send them with.
 * @param {Choice} choice
 */
function hasOrganizations(choice) {
  return hasAccounts(choice) && sendsMail(choice)
}

/**
 * Whether a method sends mail (the Password provider's mails, email sign-in links).
 * @param {{ methods: string[] }} choice
 */
function sendsMail({ methods }) {
  return methods.includes("password") || methods.includes("email")
}

/** @param {string[]} lines @param {string} indent */
function indented(lines, indent) {
  return lines.map((line) => `${indent}${line}`).join("\n")
}

/** The issuer an authenticator app shows: the app's package name. @param {Choice} choice */
function issuerOf({ project }) {
  const name = project.packageJson.name
  return typeof name === "string" && /^[\w@./ -]{1,60}$/.test(name) ? name : "My app"
}

/**
 * The mail settings at the top of the config: SMTP from the environment, or in development
 * without one the dev mailbox (`import.meta.env.DEV` is `false` in every production build, so a
 * build without EMAIL_SERVER refuses to start rather than keep mail).
 */
const MAIL_SETTINGS = [
  "  // Mails go through EMAIL_SERVER (an SMTP URL) from EMAIL_FROM. In development without",
  "  // EMAIL_SERVER they are kept instead and listed at /dev/mailbox/ (on this machine only). A",
  "  // production build (`npm run preview` too) refuses to start without EMAIL_SERVER.",
  '  const mail = { server: env.get("EMAIL_SERVER"), from: env.get("EMAIL_FROM") }',
  "  const devMail = import.meta.env.DEV && !mail.server",
]

/**
 * `src/routes/plugin@auth.ts`.
 * @param {Choice} choice
 */
export function pluginAuth(choice) {
  if (choice.sessions === "d1") return pluginAuthD1(choice)
  const { methods, sessions, project } = choice
  const providers = methods.map((m) => PROVIDERS[/** @type {keyof typeof PROVIDERS} */ (m)])
  const usesEnv = methods.some((m) => ["password", "email", "oidc"].includes(m))
  const accounts = hasAccounts(choice)
  const organizations = hasOrganizations(choice)
  const bindingImports = ["routeAuth$"]
  if (sendsMail(choice)) bindingImports.unshift("devMailbox")
  if (organizations) bindingImports.unshift("organizationActions")
  if (accounts) bindingImports.push("twoFactorActions")
  bindingImports.sort()
  const imports = [
    ...providers.flatMap((p) => p.imports),
    ...(accounts ? ['import { TwoFactor } from "@latchkey/core/two-factor"'] : []),
    ...(organizations ? SMTP_INVITATION_IMPORTS : []),
    `import { ${bindingImports.join(", ")} } from "${project.binding}"`,
  ].sort(byModule)
  if (accounts) imports.push('import { adapter } from "~/lib/db"')
  const body = [
    sessions === "jwt"
      ? "  // No adapter: the session is an encrypted cookie (JWT)."
      : "  // Users, accounts and sessions are rows in the database; the cookie holds an opaque token.",
    ...(accounts ? ["  adapter,"] : []),
    "  providers: [",
    ...providers.map((p) => indented(p.call, "    ")),
    "  ],",
    ...(methods.includes("passkey") ? ["  experimental: { enableWebAuthn: true },"] : []),
    ...(accounts
      ? [
          "  // Two-factor sign-in (an authenticator app's codes), turned on by each user on /account/.",
          `  twoFactor: TwoFactor({ issuer: ${JSON.stringify(issuerOf(choice))} }),`,
        ]
      : []),
    ...(organizations ? SMTP_ORGANIZATIONS : []),
  ]
  const flags = `--methods ${methods.join(",")} --sessions ${sessions}${choice.target && choice.target !== "node" ? ` --target ${choice.target}` : ""}`
  const header = `// Written by \`npx latchkey init ${flags}\`. Yours to edit:
// init leaves a file that differs from what it would write alone (unless --force).
${imports.join("\n")}
`
  const config = sendsMail(choice)
    ? `routeAuth$(({ env }) => {
${MAIL_SETTINGS.join("\n")}
  return {
${indented(body.join("\n").split("\n"), "  ")}
  }
})`
    : `routeAuth$((${usesEnv ? "{ env }" : ""}) => ({
${body.join("\n")}
}))`
  if (!accounts) {
    return `${header}
export const { onRequest, useSession, useSignIn, useSignOut } = ${config}
`
  }
  return `${header}
const auth = ${config}
${pluginExports(hasAccountForms(choice), organizations)}`
}

/** The modules of the invitation mail through EMAIL_SERVER: the core's template, its SMTP sender. */
const SMTP_INVITATION_IMPORTS = [
  'import { invitationMessage } from "@latchkey/core/organizations"',
  'import { DEFAULT_FROM, deliverWithNodemailer } from "@latchkey/core/providers/nodemailer"',
]

/**
 * Organizations, invitations mailed as the providers' mails are: kept in development without
 * EMAIL_SERVER, sent through it otherwise. `mail.server` is always set where it is read: without
 * it a development server keeps the mail, and a production one does not start.
 */
const SMTP_ORGANIZATIONS = [
  "  // Organizations (the account page's section): members, roles, and invitations by mail, sent",
  "  // as the mails above: kept in development without EMAIL_SERVER, else through it (which a",
  "  // production server has: without it, the providers above refuse to start).",
  "  organizations: {",
  "    sendInvitation: devMail",
  "      ? devMailbox.sendInvitation",
  "      : (invitation) =>",
  "          deliverWithNodemailer(",
  '            mail.server ?? "",',
  "            mail.from ?? DEFAULT_FROM,",
  "            invitation.to,",
  "            invitationMessage(invitation),",
  "          ),",
  "  },",
]

/** The mail providers' calls on Cloudflare: Resend's HTTP API (workerd has no SMTP). */
const D1_MAIL_CALLS = {
  password: [
    "// Sign-up with a confirmation mail, sign-in, reset and email change (built-in pages).",
    "Password({ from, sendPasswordMail: mail.sendPasswordMail }),",
  ],
  email: [
    "// Sign-in links by mail.",
    "Email({ from, sendVerificationRequest: mail.sendVerificationRequest }),",
  ],
}

/** Organizations on Cloudflare: the invitation goes through Resend, as the other mails. */
const D1_ORGANIZATIONS = `    // Organizations (the account page's section): members, roles, and invitations by mail,
    // through Resend as the mails above.
    organizations: {
      sendInvitation: (invitation) =>
        mail.send({ to: invitation.to, ...invitationMessage(invitation) }),
    },`

/**
 * `src/routes/plugin@auth.ts` on Cloudflare Pages: D1 through Latchkey's Drizzle adapter (the
 * Pages binding `DB` of `wrangler.toml`), mail through Resend's HTTP API.
 * @param {Choice} choice
 */
function pluginAuthD1(choice) {
  const { methods, project } = choice
  const mails = sendsMail(choice)
  // The same rule as the account page's section (fullAccountPage), so the two never disagree.
  const organizations = hasOrganizations(choice)
  const calls = methods.map(
    (m) =>
      D1_MAIL_CALLS[/** @type {keyof typeof D1_MAIL_CALLS} */ (m)] ??
      PROVIDERS[/** @type {keyof typeof PROVIDERS} */ (m)].call,
  )
  const imports = [
    'import { DrizzleAdapter } from "@latchkey/adapter-drizzle"',
    ...methods.flatMap((m) => PROVIDERS[/** @type {keyof typeof PROVIDERS} */ (m)].imports),
    ...(mails ? ['import { resendMail } from "@latchkey/core/providers/resend"'] : []),
    ...(organizations ? ['import { invitationMessage } from "@latchkey/core/organizations"'] : []),
    'import { TwoFactor } from "@latchkey/core/two-factor"',
    `import { ${organizations ? "organizationActions, " : ""}routeAuth$, twoFactorActions } from "${project.binding}"`,
    'import { drizzle } from "drizzle-orm/d1"',
  ].sort(byModule)
  const mailLines = mails
    ? [
        "  // workerd has no SMTP: mail goes through Resend's HTTP API (AUTH_RESEND_KEY), from",
        "  // EMAIL_FROM (an address of a domain verified at Resend).",
        '  const from = env.get("EMAIL_FROM") ?? "no-reply@example.com"',
        "  const mail = resendMail({",
        '    apiKey: env.get("AUTH_RESEND_KEY") ?? "",',
        "    from,",
        '    baseUrl: env.get("RESEND_BASE_URL"), // unset: Resend\'s own',
        "  })",
      ]
    : []
  return `// Written by \`npx latchkey init --methods ${methods.join(",")} --sessions d1 --target cloudflare-pages\`.
// Yours to edit: init leaves a file that differs from what it would write alone (unless --force).
${imports.join("\n")}
import * as schema from "~/db/auth-schema"

type D1 = Parameters<typeof drizzle>[0]

const auth = routeAuth$(({ env, platform }) => {
  // Users, accounts and sessions in D1: the DB binding of wrangler.toml, which only Cloudflare's
  // runtime provides (\`wrangler pages dev\` locally). The tables: src/db/auth-schema.ts.
  const DB = (platform as { env?: { DB?: D1 } }).env?.DB
  if (!DB) {
    throw new Error(
      "No D1 binding DB: this app keeps its users in Cloudflare D1, which only Cloudflare's runtime provides. Build, then run \`npx wrangler pages dev ./dist\` (wrangler.toml binds DB), not \`vite dev\`.",
    )
  }
${mailLines.join("\n")}
  return {
    adapter: DrizzleAdapter(drizzle(DB, { schema })),
    providers: [
${calls.map((call) => indented(call, "      ")).join("\n")}
    ],
${methods.includes("passkey") ? "    experimental: { enableWebAuthn: true },\n" : ""}    // Two-factor sign-in (an authenticator app's codes), turned on by each user on /account/.
    twoFactor: TwoFactor({ issuer: ${JSON.stringify(issuerOf(choice))} }),
${organizations ? `${D1_ORGANIZATIONS}\n` : ""}  }
})
${pluginExports(hasAccountForms(choice), organizations)}`
}

/**
 * The exports of an app with accounts: the session, the password actions (with the Password
 * provider), the two-factor actions, the organization actions (with organizations), and the
 * loaders the account page exports.
 * @param {boolean} password
 * @param {boolean} organizations
 */
function pluginExports(password, organizations) {
  const passwordActions = password
    ? `
  // The account page's password and address forms.
  useChangePassword,
  useSetPassword,
  useRemovePassword,
  useChangeEmail,`
    : ""
  return `
export const {
  onRequest,
  useSession,
  useSignIn,
  useSignOut,${passwordActions}
} = auth

// The account page's two-factor forms.
const twoFactor = twoFactorActions()
export const { useEnrollTwoFactor, useConfirmTwoFactor, useDisableTwoFactor } = twoFactor
${organizations ? ORGANIZATION_EXPORTS : ""}
// Qwik City runs every loader a plugin exports on every page: the account, the two-factor
// status${organizations ? " and the organizations" : ""} (database reads) are handed over in a plain object, and the
// account page, which shows them, exports them.
export const accountLoaders = {
  useAccount: auth.useAccount,
  useTwoFactorStatus: twoFactor.useTwoFactorStatus,${organizations ? "\n  useOrganizations: organizations.useOrganizations," : ""}
}
`
}

/** The organization actions the account page's section uses (its loader: `accountLoaders`). */
const ORGANIZATION_ACTIONS = [
  "useCreateOrganization",
  "useSetActiveOrganization",
  "useInviteMember",
  "useCancelInvitation",
  "useUpdateMemberRole",
  "useRemoveMember",
  "useLeaveOrganization",
]

const ORGANIZATION_EXPORTS = `
// The account page's organization forms. The link of an invitation mail opens Latchkey's own
// page (/auth/organization/accept), which asks to sign in first when needed.
const organizations = organizationActions()
export const {
${ORGANIZATION_ACTIONS.map((name) => `  ${name},`).join("\n")}
} = organizations
`

/**
 * `wrangler.toml`: the Pages project and its D1 database (bound as `DB`), migrations in
 * ./migrations, where drizzle-kit writes them.
 * @param {Choice} choice
 */
function wranglerToml(choice) {
  const name = String(choice.project.packageJson.name ?? "my-app")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
  return `# Cloudflare Pages with a D1 database (DB), written by \`npx latchkey init --target cloudflare-pages\`.
# Locally: \`npx wrangler d1 migrations apply auth --local\`, then \`npx wrangler pages dev ./dist\`.
# Deployed: \`npx wrangler d1 create auth\`, its database_id below, then the migrations with --remote.
name = "${name || "my-app"}"
compatibility_date = "2025-09-01"
pages_build_output_dir = "./dist"

[[d1_databases]]
binding = "DB"
database_name = "auth"
database_id = "00000000-0000-4000-8000-000000000000"
migrations_dir = "migrations"
`
}

/** `drizzle.config.ts`: drizzle-kit writes D1's migrations from Latchkey's schema file. */
const DRIZZLE_CONFIG = `import { defineConfig } from "drizzle-kit"

// Latchkey's tables (\`npx latchkey generate --drizzle sqlite\` wrote the file); the migrations go
// to ./migrations, where wrangler's D1 migrations read them.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/auth-schema.ts",
  out: "./migrations",
})
`

/** Sort import lines by module name, as Biome does. @param {string} a @param {string} b */
function byModule(a, b) {
  /** @param {string} line */
  function from(line) {
    return /from "([^"]+)"/.exec(line)?.[1] ?? line
  }
  return from(a) < from(b) ? -1 : from(a) > from(b) ? 1 : 0
}

/**
 * The adapter over a client opened on the first query, not when the module is imported: a
 * production build imports the app's modules (Qwik's static generation, in several worker
 * processes at once) and must never open the database. `exec` and `transaction` are PGlite's:
 * the adapter then knows the database is embedded (`e2e/fixtures/quickstart`'s module, as the
 * README's quick start has it).
 */
const LAZY_PGLITE = `import type { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter, type Queryable } from "@latchkey/adapter-postgres"

let opened: Promise<PGlite> | undefined

/**
 * The database, opened and migrated on the first query (never while the app is built: a build
 * imports this module). \`npx latchkey migrate\` reads the directory from the \`new PGlite\` line;
 * PGlite creates only its last level, \`npx latchkey init\` made \`.data\`.
 */
function database(): Promise<PGlite> {
  opened ??= (async () => {
    const { PGlite } = await import("@electric-sql/pglite")
    const db = new PGlite("${PGLITE_DIR}")
    await migrate(db) // creates or updates the tables; safe on every start
    return db
  })()
  return opened
}

const client: Queryable & Pick<PGlite, "exec" | "transaction"> = {
  query: async (text, params) => (await database()).query(text, params),
  exec: async (sql, options) => (await database()).exec(sql, options),
  transaction: async (fn) => (await database()).transaction(fn),
}

export const adapter = PostgresAdapter(client)
`

/**
 * \`src/lib/db.ts\`, or null with JWT sessions.
 * @param {Choice} choice
 */
export function database({ sessions }) {
  if (sessions === "pglite") return LAZY_PGLITE
  if (sessions === "postgres") {
    return `import { PostgresAdapter } from "@latchkey/adapter-postgres"
import pg from "pg"

// DATABASE_URL comes from the server's environment (export it before \`npm run dev\`). The pool
// connects on its first query, never when a build imports this module. The tables come from
// \`npx latchkey migrate\` (init ran it; run it again after upgrading Latchkey, before starting).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
export const adapter = PostgresAdapter(pool)
`
  }
  return null
}

/**
 * `src/routes/account/index.tsx`: who is signed in, a sign-out button, and a link to the
 * built-in sign-in page (which shows every configured method) otherwise. With a database, also
 * every way in and two-factor sign-in, and with mail besides, organizations (create, choose the
 * active one, members and their roles, invitations, leave); with the Password provider, the
 * password (change, remove, or set one) and the address (change).
 * @param {Choice} choice
 */
export function accountPage(choice) {
  return hasAccounts(choice) ? fullAccountPage(choice) : signInOutPage(choice.project)
}

/**
 * Both account pages' start: the session, and a link to the sign-in page when signed out. The
 * pages read \`session.value?.user\` even below the check: Qwik 2 updates a text bound to the
 * session as soon as the session changes to null, before the component renders its signed-out
 * branch (a TypeError in the console otherwise).
 */
const SESSION_OR_SIGN_IN = `export default component$(() => {
  const session = useSession()
  const signOut = useSignOut()

  if (!session.value) {
    return (
      <p>
        Not signed in. <a href="/auth/signin?callbackUrl=%2Faccount">Sign in</a>
      </p>
    )
  }`

/** @param {import("./project.mjs").Project} project */
function signInOutPage(project) {
  return `import { component$ } from "${project.core}"
import { Form } from "${project.router}"
import { useSession, useSignOut } from "../plugin@auth"

${SESSION_OR_SIGN_IN}
  return (
    <Form action={signOut}>
      <p>Signed in as {session.value?.user?.email ?? session.value?.user?.name}</p>
      <button type="submit">Sign out</button>
    </Form>
  )
})
`
}

/**
 * Qwik 2 (2.0.0-beta.45) re-fetches after an action only the loaders its client can place on a
 * route, and its Vite plugin places a plugin's loaders only from \`export const { … } =
 * routeAuth$(…)\`, not from \`export const { … } = auth\`: exported again by the page, the session
 * is re-fetched here after the sign-out.
 */
const QWIK2_SESSION_ON_PAGE = `// Qwik 2 re-fetches the session after an action on this page only if the page exports it too.
export const useSessionOfPage = useSession
`

/** @param {Choice} choice */
function fullAccountPage(choice) {
  const { project, methods } = choice
  const password = hasAccountForms(choice)
  const organizations = hasOrganizations(choice)
  const fromPlugin = [
    "accountLoaders",
    "useConfirmTwoFactor",
    "useDisableTwoFactor",
    "useEnrollTwoFactor",
    "useSession",
    "useSignOut",
    ...(password
      ? ["useChangeEmail", "useChangePassword", "useRemovePassword", "useSetPassword"]
      : []),
    ...(organizations ? ORGANIZATION_ACTIONS : []),
  ].sort() // as Biome sorts them
  return `// Every change is a <Form> on one of the binding's actions: it works without JavaScript too,
// and shows what the action answered (done, or why not) below the form.
import { component$ } from "${project.core}"
import { Form } from "${project.router}"
import {
${fromPlugin.map((name) => `  ${name},`).join("\n")}
} from "../plugin@auth"

// Exported by this page only, so only this page reads them (see plugin@auth.ts).
export const useAccount = accountLoaders.useAccount
export const useTwoFactorStatus = accountLoaders.useTwoFactorStatus
${organizations ? "export const useOrganizations = accountLoaders.useOrganizations\n" : ""}${project.qwik === 1 ? "" : QWIK2_SESSION_ON_PAGE}
${SESSION_OR_SIGN_IN}
  return (
    <>
      <Form action={signOut}>
        <p>Signed in as {session.value?.user?.email ?? session.value?.user?.name}</p>
        <button type="submit">Sign out</button>
      </Form>
      <WaysIn />${password ? "\n      <PasswordSection />\n      <EmailSection />" : ""}
      <TwoFactorSection />${organizations ? "\n      <OrganizationsSection />" : ""}
    </>
  )
})

${waysIn(methods.includes("email"))}
${password ? PASSWORD_SECTIONS : ""}${TWO_FACTOR_SECTION}${organizations ? `\n${ORGANIZATIONS_SECTION}` : ""}
${passwordInputsAndAnswer(password)}`
}

/**
 * The section listing every way into the account: what the account API reports (password,
 * passkeys, linked providers) and, with email sign-in links, the address itself.
 * @param {boolean} emailLinks
 */
function waysIn(emailLinks) {
  const emailLine = emailLinks
    ? `
        {user.email && (
          <li>
            A sign-in link mailed to {user.email} (it cannot be removed: change the address to move
            it)
          </li>
        )}`
    : ""
  return `/** Every way into this account: the last one cannot be removed. */
const WaysIn = component$(() => {
  const account = useAccount()
  if (!account.value) return null
  const { ${emailLinks ? "user, " : ""}password, passkeys, accounts } = account.value
  return (
    <section>
      <h2>Ways to sign in</h2>
      <ul data-ways-in>
        {password?.set && <li>Password</li>}${emailLine}
        {passkeys?.map((passkey) => (
          <li key={passkey.id}>Passkey{passkey.name ? \` "\${passkey.name}"\` : ""}</li>
        ))}
        {accounts?.map((linked) => (
          <li key={\`\${linked.provider}:\${linked.providerAccountId}\`}>{linked.provider}</li>
        ))}
      </ul>
    </section>
  )
})
`
}

/**
 * Two-factor sign-in on the account page: on with a QR code (or the secret typed by hand) and a
 * first code, which shows the recovery codes once; off (it needs a recent sign-in with a code).
 */
const TWO_FACTOR_SECTION = `/**
 * Two-factor sign-in: after the first way in, a code from an authenticator app. Turning it on
 * needs a recent sign-in; turning it off, a recent sign-in with a code. The recovery codes (each
 * works once, when the app is not at hand) are shown once, when it is turned on.
 */
const TwoFactorSection = component$(() => {
  const status = useTwoFactorStatus()
  const enroll = useEnrollTwoFactor()
  const confirm = useConfirmTwoFactor()
  const disable = useDisableTwoFactor()
  if (!status.value) return null
  const enabled = status.value.enabled
  const enrollment = enroll.value && "secret" in enroll.value ? enroll.value : null
  const codes =
    confirm.value && "recoveryCodes" in confirm.value ? confirm.value.recoveryCodes : null
  return (
    <section>
      <h2>Two-factor sign-in</h2>
      <p data-two-factor={enabled ? "on" : "off"}>
        {enabled ? "On: signing in asks for a code from your authenticator app." : "Off."}
      </p>
      {codes && (
        <>
          <p>Your recovery codes, shown only now: keep them somewhere safe.</p>
          <ul data-recovery-codes>
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </>
      )}
      {!enabled && !enrollment && (
        <Form action={enroll}>
          <button type="submit">Turn on two-factor sign-in</button>
        </Form>
      )}
      {!enabled && enrollment && (
        <Form action={confirm}>
          <p>Scan this code with your authenticator app, then type the code it shows.</p>
          {/* The core's SVG of the otpauth:// URI: no script, no link. */}
          <div dangerouslySetInnerHTML={enrollment.qrSvg} style={{ width: "12rem" }} />
          <p>
            Or type this secret into the app:{" "}
            <code data-two-factor-secret>{enrollment.secret}</code>
          </p>
          <label>
            Code <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
          </label>
          <button type="submit">Confirm</button>
        </Form>
      )}
      {enabled && (
        <Form action={disable}>
          <button type="submit">Turn off two-factor sign-in</button>
        </Form>
      )}
      <Answer value={enroll.value} done="" />
      <Answer value={confirm.value} done="" />
      <Answer value={disable.value} done="Two-factor sign-in is off." />
    </section>
  )
})
`

/** The organizations section: yours, the active one's members and invitations, and leaving. */
const ORGANIZATIONS_SECTION = `/**
 * Organizations: the ones you are in (you act in one at a time, the active one), a new one (you
 * own it), and the active one's members and invitations. The server decides who may do what (no
 * one gives a role above their own, an organization keeps an owner) and says why not: the forms
 * below only leave out what a member's role never allows.
 */
const OrganizationsSection = component$(() => {
  const data = useOrganizations()
  const create = useCreateOrganization()
  const setActive = useSetActiveOrganization()
  if (!data.value) return null
  const { organizations, active } = data.value
  return (
    <section data-testid="organizations">
      <h2>Organizations</h2>
      {organizations.length === 0 && (
        <p data-testid="no-organizations">You are in no organization yet.</p>
      )}
      <ul>
        {organizations.map((o) => (
          <li key={o.id} data-testid="organization" data-slug={o.slug}>
            {o.name} ({o.slug}): <span data-testid="organization-role">{o.role}</span>{" "}
            {active?.organization.id === o.id ? (
              <strong data-testid="organization-active">active</strong>
            ) : (
              <Form action={setActive}>
                <input type="hidden" name="organizationId" value={o.id} />
                <button type="submit" data-testid="organization-switch">
                  Make active
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <Answer
        value={setActive.value}
        done="Active organization changed."
        testId="organization-switch"
      />
      <Form action={create}>
        <label>
          Name <input name="name" required maxLength={100} data-testid="organization-name" />
        </label>
        {/* The address-like name: letters, digits and single hyphens (case ignored). */}
        <label>
          Slug{" "}
          <input
            name="slug"
            required
            minLength={2}
            maxLength={48}
            pattern="[A-Za-z0-9]+(-[A-Za-z0-9]+)*"
            data-testid="organization-slug"
          />
        </label>
        <button type="submit" data-testid="organization-create">
          Create organization
        </button>
      </Form>
      <Answer
        value={create.value}
        done="Created: it is your active organization."
        testId="organization-create"
      />
      <ActiveOrganization />
    </section>
  )
})

/**
 * The active organization's members. Owners and admins change roles, remove members and invite;
 * anyone leaves (the last owner is refused: an organization always has one).
 */
const ActiveOrganization = component$(() => {
  const data = useOrganizations()
  const account = useAccount()
  const changeRole = useUpdateMemberRole()
  const remove = useRemoveMember()
  const leave = useLeaveOrganization()
  const active = data.value?.active
  const detail = data.value?.detail
  if (!active || !detail) return null
  const organizationId = active.organization.id
  const manages = detail.role === "owner" || detail.role === "admin"
  const me = account.value?.user.id
  return (
    <div data-testid="active-organization">
      <h3>
        {active.organization.name}: members (you are {detail.role})
      </h3>
      <ul>
        {detail.members.map((m) => (
          <li key={m.userId} data-testid="member" data-email={m.email ?? ""}>
            {m.email ?? m.name ?? m.userId}: <span data-testid="member-role">{m.role}</span>
            {manages && m.userId !== me && (
              <>
                <Form action={changeRole}>
                  <input type="hidden" name="organizationId" value={organizationId} />
                  <input type="hidden" name="userId" value={m.userId} />
                  <RoleSelect roles={detail.roles} selected={m.role} testId="member-role-select" />
                  <button type="submit" data-testid="member-role-save">
                    Change role
                  </button>
                </Form>
                <Form action={remove}>
                  <input type="hidden" name="organizationId" value={organizationId} />
                  <input type="hidden" name="userId" value={m.userId} />
                  <button type="submit" data-testid="member-remove">
                    Remove
                  </button>
                </Form>
              </>
            )}
          </li>
        ))}
      </ul>
      <Answer value={changeRole.value} done="Role changed." testId="member-role" />
      <Answer value={remove.value} done="Removed." testId="member-remove" />
      {manages && <Invitations />}
      <Form action={leave}>
        <input type="hidden" name="organizationId" value={organizationId} />
        <button type="submit" data-testid="organization-leave">
          Leave {active.organization.name}
        </button>
      </Form>
      <Answer value={leave.value} done="You left the organization." testId="organization-leave" />
    </div>
  )
})

/**
 * Invitations by mail, with a role no higher than yours, and the pending ones (listed to owners
 * and admins only). The mailed link works once, for the invited address.
 */
const Invitations = component$(() => {
  const data = useOrganizations()
  const invite = useInviteMember()
  const cancel = useCancelInvitation()
  const active = data.value?.active
  const detail = data.value?.detail
  if (!active || !detail) return null
  const organizationId = active.organization.id
  return (
    <>
      <Form action={invite}>
        <input type="hidden" name="organizationId" value={organizationId} />
        <label>
          Invite by email{" "}
          <input name="email" type="email" autoComplete="off" required data-testid="invite-email" />
        </label>
        <RoleSelect roles={detail.roles} selected="member" testId="invite-role" />
        <button type="submit" data-testid="invite-send">
          Invite
        </button>
      </Form>
      <Answer value={invite.value} done="Invitation sent." testId="invite" />
      <ul>
        {detail.invitations.map((i) => (
          <li key={i.id} data-testid="invitation">
            {i.email}: {i.role}, {i.expired ? "expired" : "pending"}
            <Form action={cancel}>
              <input type="hidden" name="organizationId" value={organizationId} />
              <input type="hidden" name="invitationId" value={i.id} />
              <button type="submit" data-testid="invitation-cancel">
                Cancel
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <Answer value={cancel.value} done="Invitation cancelled." testId="invitation-cancel" />
    </>
  )
})

/** The organization's roles (built in, and the app's own) as a \`role\` field. */
const RoleSelect = (props: { roles: string[]; selected: string; testId: string }) => (
  <select name="role" aria-label="Role" data-testid={props.testId}>
    {props.roles.map((role) => (
      <option key={role} value={role} selected={role === props.selected}>
        {role}
      </option>
    ))}
  </select>
)
`

/** The password and address sections (the Password provider's actions). */
const PASSWORD_SECTIONS = `/**
 * The password as a way to sign in: change it or remove it (the current one is needed; every
 * other device is signed out; removing is refused when it is the last way in), or set one.
 */
const PasswordSection = component$(() => {
  const account = useAccount()
  const change = useChangePassword()
  const remove = useRemovePassword()
  const set = useSetPassword()
  const password = account.value?.password
  if (!password) return null
  return (
    <section>
      <h2>Password</h2>
      {password.set ? (
        <>
          <Form action={change}>
            <CurrentPassword />
            <NewPassword />
            <button type="submit">Change password</button>
          </Form>
          <Form action={remove}>
            <CurrentPassword />
            <button type="submit">Remove password</button>
          </Form>
        </>
      ) : (
        <Form action={set}>
          <p>No password yet: set one to sign in with your address and a password.</p>
          <NewPassword />
          <button type="submit">Set password</button>
        </Form>
      )}
      <Answer value={change.value} done="Password changed. Your other devices are signed out." />
      <Answer value={remove.value} done="Password removed." />
      <Answer value={set.value} done="Password set." />
    </section>
  )
})
`

/** The address section and the password inputs (the Password provider's forms). */
const EMAIL_SECTION_AND_INPUTS = `/** A new address takes effect once the link mailed to it is opened; the old one gets a notice. */
const EmailSection = component$(() => {
  const account = useAccount()
  const change = useChangeEmail()
  if (!account.value) return null
  return (
    <section>
      <h2>Email address</h2>
      <Form action={change}>
        <label>
          New address <input name="email" type="email" autoComplete="email" required />
        </label>
        {account.value.password?.set && <CurrentPassword />}
        <button type="submit">Change address</button>
      </Form>
      <Answer value={change.value} done="Open the link we sent to the new address to confirm it." />
    </section>
  )
})

const CurrentPassword = () => (
  <label>
    Current password{" "}
    <input name="currentPassword" type="password" autoComplete="current-password" required />
  </label>
)

// The server's password policy decides (8 characters at least by default) and says why not.
const NewPassword = () => (
  <label>
    New password <input name="password" type="password" autoComplete="new-password" required />
  </label>
)

`

/** The answer of an action below its form, which every section shows. */
const ANSWER = `/** The parts of an action's answer shown: \`{ ok: true }\`, or a failure and its message. */
interface ActionAnswer {
  ok?: boolean
  failed?: boolean
  formErrors?: string[]
  fieldErrors?: Record<string, string | string[] | undefined>
  /** When the change needs a recent sign-in: the sign-in page, back here afterwards. */
  signInUrl?: string
  // What else an action answers (an enrollment's QR code, recovery codes) is shown elsewhere.
  [other: string]: unknown
}

/** \`testId\` names the answer for tests: \`<testId>-done\` or \`<testId>-error\`. */
const Answer = (props: { value: ActionAnswer | undefined; done: string; testId?: string }) => {
  const value = props.value
  const testId = (outcome: string) => (props.testId ? \`\${props.testId}-\${outcome}\` : undefined)
  if (value?.ok) {
    return (
      <p role="status" data-testid={testId("done")}>
        {props.done}
      </p>
    )
  }
  if (!value?.failed) return null
  const fieldError = Object.values(value.fieldErrors ?? {}).flat()[0]
  return (
    <p role="alert" data-testid={testId("error")}>
      {value.formErrors?.[0] ?? fieldError ?? "That did not work. Please try again."}
      {value.signInUrl && (
        <>
          {" "}
          <a href={value.signInUrl}>Sign in again</a>
        </>
      )}
    </p>
  )
}
`

/** @param {boolean} password */
function passwordInputsAndAnswer(password) {
  return `${password ? EMAIL_SECTION_AND_INPUTS : ""}${ANSWER}`
}

/**
 * Every file init writes, by path relative to the app.
 * @param {Choice} choice
 * @returns {[string, string][]}
 */
export function filesFor(choice) {
  const db = database(choice)
  return [
    ["src/routes/plugin@auth.ts", pluginAuth(choice)],
    ...(db ? /** @type {[string, string][]} */ ([["src/lib/db.ts", db]]) : []),
    ["src/routes/account/index.tsx", accountPage(choice)],
    ...(sendsMail(choice) && choice.sessions !== "d1"
      ? /** @type {[string, string][]} */ ([
          ["src/routes/dev/mailbox/index.tsx", mailboxPage(choice)],
        ])
      : []),
    ...(choice.sessions === "d1"
      ? /** @type {[string, string][]} */ ([
          ["wrangler.toml", wranglerToml(choice)],
          ["drizzle.config.ts", DRIZZLE_CONFIG],
        ])
      : []),
  ]
}

/**
 * \`src/routes/dev/mailbox/index.tsx\`: the mails kept in development (\`devMailbox\` of the
 * binding), for this machine only; a 404 for everyone else and in every production build.
 * @param {Choice} choice
 */
export function mailboxPage({ project }) {
  return `// The dev mailbox: in development without EMAIL_SERVER, the app's mails are kept instead of
// sent (plugin@auth.ts) and listed here. Their links sign in whoever opens them, so the page
// answers only this machine, and only in development: a production build answers 404.
import { component$ } from "${project.core}"
import { routeLoader$ } from "${project.router}"
import { devMailbox, devMailboxGuard } from "${project.binding}"

export const onRequest = devMailboxGuard(import.meta.env.DEV)

export const useMails = routeLoader$(() => devMailbox.list())

export default component$(() => {
  const mails = useMails()
  return (
    <section>
      <h1>Dev mailbox</h1>
      <p>Development only: the mails the app would have sent, newest first.</p>
      {mails.value.length === 0 && <p>No mail yet.</p>}
      <ol data-mailbox>
        {mails.value.map((mail) => (
          <li key={mail.id} data-to={mail.to} data-purpose={mail.purpose}>
            <strong>{mail.subject}</strong> to {mail.to} at {mail.sentAt.slice(11, 19)} UTC
            {/* A plain link: the page it opens is Latchkey's, not a route of the app. */}
            {mail.url && (
              <p>
                <a href={mail.url}>{mail.url}</a>
              </p>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
})
`
}

/**
 * The dev dependencies the choice needs (Qwik's starter refuses Qwik packages in
 * `dependencies`, and Vite bundles them anyway), with the range written to package.json.
 * @param {Choice} choice
 * @param {string} version the version of @latchkey/* (this package's own)
 * @returns {Record<string, string>}
 */
export function packagesFor({ sessions, project }, version) {
  /** @type {Record<string, string>} */
  const wanted = { "@latchkey/core": `^${version}`, [project.binding]: `^${version}` }
  if (sessions === "d1") {
    wanted["@latchkey/adapter-drizzle"] = `^${version}`
    wanted["drizzle-orm"] = "^0.45.4"
    wanted["drizzle-kit"] = "^0.31.11"
    return wanted
  }
  if (sessions !== "jwt") wanted["@latchkey/adapter-postgres"] = `^${version}`
  // The versions Latchkey is tested against (adapter-postgres's peer ranges are wider).
  if (sessions === "pglite") wanted["@electric-sql/pglite"] = "^0.5.16"
  if (sessions === "postgres") {
    wanted.pg = "^8.23.1"
    wanted["@types/pg"] = "^8.23.1"
  }
  return wanted
}
