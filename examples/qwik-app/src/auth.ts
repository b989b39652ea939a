/**
 * The demo's Latchkey configuration. It is a module-level object so every request hands the core
 * the same config and its resolved form is cached. The secret comes from `AUTH_SECRET` (generated
 * into `.env` by `scripts/start.mjs` on first run). Sessions are database sessions in embedded
 * PGlite (`lib/db.ts`): the cookie holds an opaque token, the row holds the rest.
 * `LATCHKEY_DEMO_SESSIONS=jwt` switches to JWT sessions (the browser tests run both), and
 * `LATCHKEY_DEMO_RECENT_AUTH_MAX_AGE` shortens how long a sign-in counts as recent for account
 * changes (the tests' "sign in again" case; the default is the core's 10 minutes).
 */
import type { Provider } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import Email from "@latchkey/core/providers/email"
import GitHub from "@latchkey/core/providers/github"
import Google from "@latchkey/core/providers/google"
import { oidcProvider, standardOidcProfile } from "@latchkey/core/providers/oauth"
import Passkey from "@latchkey/core/providers/passkey"
import type { QwikAuthConfig } from "@latchkey/qwik"
import { adapter } from "./lib/db"
import { deliverToDevMailbox, devMailboxEnabled } from "./lib/dev-mailbox"
import { getNickname, hasPassword, setNickname, verifyCredentials } from "./lib/users"

declare module "@latchkey/core" {
  interface Session {
    /** The custom field of the demo, changed on the account page through the `update` trigger. */
    nickname?: string
  }
}

/**
 * OAuth/OIDC providers, each present only when configured; the sign-in page shows a button for
 * every one. `scripts/start.mjs` starts a local OpenID Provider and sets `AUTH_LOCAL_OIDC_*`;
 * GitHub and Google need `AUTH_GITHUB_ID`/`AUTH_GITHUB_SECRET` and
 * `AUTH_GOOGLE_ID`/`AUTH_GOOGLE_SECRET` (the core's env defaults fill them in).
 */
function oauthProviders(): Provider[] {
  const providers: Provider[] = []
  if (process.env.AUTH_LOCAL_OIDC_ISSUER) {
    providers.push(
      oidcProvider(
        { id: "local-oidc", name: "Local OpenID", profile: standardOidcProfile },
        // Keep its access token fresh for getAccessToken (the /provider/ page).
        { refresh: true },
      ),
    )
  }
  if (process.env.AUTH_GITHUB_ID) providers.push(GitHub)
  if (process.env.AUTH_GOOGLE_ID) providers.push(Google)
  return providers
}

/**
 * Magic links (id "email"), delivered to the dev mailbox (`/dev/mailbox/`) instead of being sent.
 * A real app passes `server` (an SMTP URL) and keeps the default sender.
 */
function emailProviders(): Provider[] {
  if (!devMailboxEnabled()) return []
  return [
    Email({
      from: "Latchkey demo <no-reply@localhost>",
      sendVerificationRequest: deliverToDevMailbox,
    }),
  ]
}

/** `session.recentAuthMaxAge` from the environment, when set to a whole number of seconds. */
function recentAuthMaxAge(): { recentAuthMaxAge?: number } {
  const seconds = Number(process.env.LATCHKEY_DEMO_RECENT_AUTH_MAX_AGE)
  return Number.isInteger(seconds) && seconds > 0 ? { recentAuthMaxAge: seconds } : {}
}

export const authConfig: QwikAuthConfig = {
  providers: [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        const user = await verifyCredentials(credentials.email, credentials.password)
        return user && { id: user.id, email: user.email, name: user.name }
      },
    }),
    ...emailProviders(),
    ...oauthProviders(),
    // Passkeys: registered on the account page, used on the sign-in page (`@latchkey/qwik`'s
    // registerPasskey / signInWithPasskey). Experimental, hence the flag.
    Passkey(),
  ],
  experimental: { enableWebAuthn: true },
  adapter,
  // The account page may remove a user's last passkey or linked account only when another way
  // to sign in remains; a password is one, and only the app knows who has one.
  account: { hasCredentials: (user) => hasPassword(user.id) },
  session: {
    ...(process.env.LATCHKEY_DEMO_SESSIONS === "jwt"
      ? // "End this session" on the account page should end it at the other device's next
        // request, not at its next re-issue: every read checks revocation (one query).
        { strategy: "jwt", revocation: "strict" }
      : { strategy: "database" }),
    ...recentAuthMaxAge(),
  },
  // Two-factor sign-in, turned on per user on /account/two-factor/ (sealed secret and hashed
  // recovery codes in PGlite, migration 0006).
  twoFactor: { issuer: "Latchkey demo" },
  // After asking for a link: the demo's own page, which points to the dev mailbox.
  pages: { signIn: "/signin/", verifyRequest: "/verify-request/" },
  // The Node server only listens on loopback and Qwik City derives the origin it checks actions
  // against from the same Host header, so trusting it adds nothing an attacker controls.
  trustHost: true,
  callbacks: {
    /**
     * The nickname is the demo's custom session field. `update` (from the account page) stores
     * it; every session read includes it. The user's id comes from the row (database sessions)
     * or the token's `sub` (JWT sessions).
     */
    async session({ session, user, token, trigger, newSession }) {
      const userId = user?.id ?? token?.sub
      if (!userId) return session
      const requested = (newSession as { nickname?: unknown } | undefined)?.nickname
      if (trigger === "update" && typeof requested === "string" && requested.trim()) {
        await setNickname(userId, requested.trim().slice(0, 40))
      }
      if (session.user) session.user.id = userId
      const name = user?.name ?? session.user?.name
      session.nickname = (await getNickname(userId)) ?? name?.split(" ")[0] ?? ""
      return session
    },
  },
}
