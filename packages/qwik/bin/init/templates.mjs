// The files `npx latchkey init` writes, for the methods and session storage chosen: the same
// files as the README's quick start (with PGlite, `src/lib/db.ts` is its module, as
// `e2e/fixtures/quickstart` has it), with each chosen provider in `plugin@auth.ts` and an
// account page.

/** Where the PGlite database lives, relative to the app: `npx latchkey migrate` reads it back. */
export const PGLITE_DIR = "./.data/auth"

/**
 * @typedef {{ methods: string[]; sessions: string;
 *   project: import("./project.mjs").Project }} Choice
 */

/** The import and the call of each method's provider; `env` is Qwik's request env. */
const PROVIDERS = {
  password: {
    imports: ['import Password from "@latchkey/core/providers/password"'],
    call: [
      "// Sign-up with a confirmation mail, sign-in, reset and email change (built-in pages).",
      "// Mails go through EMAIL_SERVER (an SMTP URL); without it the app refuses to start.",
      'Password({ server: env.get("EMAIL_SERVER"), from: env.get("EMAIL_FROM") }),',
    ],
  },
  passkey: {
    imports: ['import Passkey from "@latchkey/core/providers/passkey"'],
    call: ["Passkey(),"],
  },
  email: {
    imports: ['import Email from "@latchkey/core/providers/email"'],
    call: [
      "// Sign-in links by mail, through EMAIL_SERVER (an SMTP URL).",
      'Email({ server: env.get("EMAIL_SERVER"), from: env.get("EMAIL_FROM") }),',
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

/** @param {string[]} lines @param {string} indent */
function indented(lines, indent) {
  return lines.map((line) => `${indent}${line}`).join("\n")
}

/**
 * `src/routes/plugin@auth.ts`.
 * @param {Choice} choice
 */
export function pluginAuth(choice) {
  const { methods, sessions, project } = choice
  const providers = methods.map((m) => PROVIDERS[/** @type {keyof typeof PROVIDERS} */ (m)])
  const usesEnv = methods.some((m) => ["password", "email", "oidc"].includes(m))
  const imports = [
    ...providers.flatMap((p) => p.imports),
    `import { routeAuth$ } from "${project.binding}"`,
  ].sort(byModule)
  if (sessions !== "jwt") imports.push('import { adapter } from "~/lib/db"')
  const body = [
    sessions === "jwt"
      ? "  // No adapter: the session is an encrypted cookie (JWT)."
      : "  // Users, accounts and sessions are rows in the database; the cookie holds an opaque token.",
    ...(sessions === "jwt" ? [] : ["  adapter,"]),
    "  providers: [",
    ...providers.map((p) => indented(p.call, "    ")),
    "  ],",
    ...(methods.includes("passkey") ? ["  experimental: { enableWebAuthn: true },"] : []),
  ]
  const header = `// Written by \`npx latchkey init --methods ${methods.join(",")} --sessions ${sessions}\`. Yours to edit:
// init leaves a file that differs from what it would write alone (unless --force).
${imports.join("\n")}
`
  const config = `routeAuth$((${usesEnv ? "{ env }" : ""}) => ({
${body.join("\n")}
}))`
  if (!hasAccountForms(choice)) {
    return `${header}
export const { onRequest, useSession, useSignIn, useSignOut } = ${config}
`
  }
  return `${header}
const auth = ${config}

export const {
  onRequest,
  useSession,
  useSignIn,
  useSignOut,
  // The account page's password and address forms.
  useChangePassword,
  useSetPassword,
  useRemovePassword,
  useChangeEmail,
} = auth

// Qwik City runs every loader a plugin exports on every page: the account (a database read) is
// handed over in a plain object, and the account page, which shows it, exports it.
export const accountLoaders = { useAccount: auth.useAccount }
`
}

/** Sort import lines by module name, as Biome does. @param {string} a @param {string} b */
function byModule(a, b) {
  /** @param {string} line */
  function from(line) {
    return /from "([^"]+)"/.exec(line)?.[1] ?? line
  }
  return from(a) < from(b) ? -1 : from(a) > from(b) ? 1 : 0
}

/**
 * `src/lib/db.ts`, or null with JWT sessions.
 * @param {Choice} choice
 */
export function database({ sessions }) {
  if (sessions === "pglite") {
    return `import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"

// The directory must exist: \`mkdir -p .data\` (PGlite creates only the last level; \`npx latchkey
// init\` makes it). \`npx latchkey migrate\` reads the path from this line.
const db = new PGlite("${PGLITE_DIR}")
await migrate(db) // creates or updates the tables; safe to run on every start
export const adapter = PostgresAdapter(db)
`
  }
  if (sessions === "postgres") {
    return `import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import pg from "pg"

// DATABASE_URL comes from the server's environment (export it before \`npm run dev\`).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
await migrate(pool) // creates or updates the tables; safe to run on every start
export const adapter = PostgresAdapter(pool)
`
  }
  return null
}

/**
 * `src/routes/account/index.tsx`: who is signed in, a sign-out button, and a link to the
 * built-in sign-in page (which shows every configured method) otherwise. With the Password
 * provider, also the password (change, remove, or set
 * one) and the address (change).
 * @param {Choice} choice
 */
export function accountPage(choice) {
  return hasAccountForms(choice)
    ? passwordAccountPage(choice.project)
    : signInOutPage(choice.project)
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

/** @param {import("./project.mjs").Project} project */
function passwordAccountPage(project) {
  return `// Every change is a <Form> on one of the binding's actions: it works without JavaScript too,
// and shows what the action answered (done, or why not) below the form.
import { component$ } from "${project.core}"
import { Form } from "${project.router}"
import {
  accountLoaders,
  useChangeEmail,
  useChangePassword,
  useRemovePassword,
  useSession,
  useSetPassword,
  useSignOut,
} from "../plugin@auth"

// Exported by this page only, so only this page reads the account (see plugin@auth.ts).
export const useAccount = accountLoaders.useAccount
${project.qwik === 1 ? "" : QWIK2_SESSION_ON_PAGE}
${SESSION_OR_SIGN_IN}
  return (
    <>
      <Form action={signOut}>
        <p>Signed in as {session.value?.user?.email ?? session.value?.user?.name}</p>
        <button type="submit">Sign out</button>
      </Form>
      <PasswordSection />
      <EmailSection />
    </>
  )
})

/**
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

/** A new address takes effect once the link mailed to it is opened; the old one gets a notice. */
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

/** The parts of an action's answer shown: \`{ ok: true }\`, or a failure and its message. */
interface ActionAnswer {
  ok?: boolean
  failed?: boolean
  formErrors?: string[]
  fieldErrors?: Record<string, string | string[] | undefined>
  /** When the change needs a recent sign-in: the sign-in page, back here afterwards. */
  signInUrl?: string
}

const Answer = (props: { value: ActionAnswer | undefined; done: string }) => {
  const value = props.value
  if (value?.ok) return <p role="status">{props.done}</p>
  if (!value?.failed) return null
  const fieldError = Object.values(value.fieldErrors ?? {}).flat()[0]
  return (
    <p role="alert">
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
  ]
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
  if (sessions !== "jwt") wanted["@latchkey/adapter-postgres"] = `^${version}`
  // The versions Latchkey is tested against (adapter-postgres's peer ranges are wider).
  if (sessions === "pglite") wanted["@electric-sql/pglite"] = "^0.5.16"
  if (sessions === "postgres") {
    wanted.pg = "^8.23.1"
    wanted["@types/pg"] = "^8.23.1"
  }
  return wanted
}
