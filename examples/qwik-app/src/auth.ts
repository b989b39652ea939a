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
import Email from "@latchkey/core/providers/email"
import GitHub from "@latchkey/core/providers/github"
import Google from "@latchkey/core/providers/google"
import { oidcProvider, standardOidcProfile } from "@latchkey/core/providers/oauth"
import Passkey from "@latchkey/core/providers/passkey"
import Password, { type SendPasswordMailParams } from "@latchkey/core/providers/password"
import type { QwikAuthConfig } from "@latchkey/qwik"
import { adapter } from "./lib/db"
import {
  deliverInvitationToDevMailbox,
  deliverPasswordMailToDevMailbox,
  deliverToDevMailbox,
  devMailboxEnabled,
} from "./lib/dev-mailbox"
import { getNickname, setNickname } from "./lib/nicknames"

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
 * Magic links (id "email"): sent through `SMTP_URL` when set, else delivered to the dev mailbox
 * (`/dev/mailbox/`) instead of being sent.
 */
function emailProviders(): Provider[] {
  const from = process.env.SMTP_FROM ?? "Latchkey demo <no-reply@localhost>"
  if (process.env.SMTP_URL) return [Email({ server: process.env.SMTP_URL, from })]
  if (!devMailboxEnabled()) return []
  return [
    Email({
      from: "Latchkey demo <no-reply@localhost>",
      sendVerificationRequest: deliverToDevMailbox,
    }),
  ]
}

/**
 * Email + password accounts, run by the core: sign-up with a verification link, sign-in, forgot
 * and reset, change password and email (the pages under `routes/` use `@latchkey/qwik`'s
 * actions). The mails go through SMTP when `SMTP_URL` is set (e.g. `smtp://user:pass@host:587`,
 * the provider's nodemailer transport), else to the dev mailbox. With neither, nothing can prove
 * an address, so sign-up signs people in unproven: verification is turned off explicitly, as the
 * provider demands of a config that cannot send mail.
 */
export const passwordProvider = Password({
  from: process.env.SMTP_FROM ?? "Latchkey demo <no-reply@localhost>",
  ...mailDelivery(),
  // The browser tests create many accounts from one address; a real app keeps the defaults.
  ...mailRequestsPerIp(),
})

function mailDelivery():
  | { server: string }
  | { sendPasswordMail: (params: SendPasswordMailParams) => Promise<void> }
  | { requireEmailVerification: false } {
  if (process.env.SMTP_URL) return { server: process.env.SMTP_URL }
  if (devMailboxEnabled()) return { sendPasswordMail: deliverPasswordMailToDevMailbox }
  return { requireEmailVerification: false }
}

/** `LATCHKEY_DEMO_MAIL_REQUESTS_PER_IP`: mail-sending requests (sign-up, forgot) per IP per 15 minutes. */
function mailRequestsPerIp(): { mailRateLimit?: { perIp: { limit: number; windowMs: number } } } {
  const limit = Number(process.env.LATCHKEY_DEMO_MAIL_REQUESTS_PER_IP)
  return Number.isInteger(limit) && limit > 0
    ? { mailRateLimit: { perIp: { limit, windowMs: 15 * 60 * 1000 } } }
    : {}
}

/** `session.recentAuthMaxAge` from the environment, when set to a whole number of seconds. */
function recentAuthMaxAge(): { recentAuthMaxAge?: number } {
  const seconds = Number(process.env.LATCHKEY_DEMO_RECENT_AUTH_MAX_AGE)
  return Number.isInteger(seconds) && seconds > 0 ? { recentAuthMaxAge: seconds } : {}
}

export const authConfig: QwikAuthConfig = {
  providers: [
    passwordProvider,
    ...emailProviders(),
    ...oauthProviders(),
    // Passkeys: registered on the account page, used on the sign-in page (`@latchkey/qwik`'s
    // registerPasskey / signInWithPasskey). Experimental, hence the flag.
    Passkey(),
  ],
  experimental: { enableWebAuthn: true },
  adapter,
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
  // Organizations (the account page's section, the /team/ page): members, roles, invitations
  // mailed to the dev mailbox. `billing` is an app role: permission statements of its own.
  ...(devMailboxEnabled()
    ? {
        organizations: {
          roles: { billing: { invoice: ["read", "pay"] } },
          sendInvitation: deliverInvitationToDevMailbox,
        },
      }
    : {}),
  // The demo's own pages. The links of the verification and email-change mails open the core's
  // confirm page (one button, a POST: a mail scanner's GET consumes nothing).
  pages: {
    signIn: "/signin/",
    verifyRequest: "/verify-request/",
    signUp: "/signup/",
    forgotPassword: "/forgot/",
    resetPassword: "/reset/",
    passwordSent: "/verify-request/?password=1",
  },
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
