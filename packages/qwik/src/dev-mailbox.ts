/**
 * The dev mailbox: in development, the app's mails (sign-in links, the Password provider's
 * confirmation, reset and address-change mails and notices, organization invitations) are kept instead of sent, and a page
 * of the app lists them, so the first sign-up needs no mail server. Their links sign in (or
 * reset the password of) whoever opens them: the page answers only requests from this machine,
 * and only while the app says it is in development (`import.meta.env.DEV`, which Vite makes
 * `false` in every production build).
 *
 * ```ts
 * // plugin@auth.ts
 * Password(import.meta.env.DEV && !env.get("EMAIL_SERVER")
 *   ? { sendPasswordMail: devMailbox.sendPasswordMail }
 *   : { server: env.get("EMAIL_SERVER"), from: env.get("EMAIL_FROM") })
 * // routes/dev/mailbox/index.tsx
 * export const onRequest = devMailboxGuard(import.meta.env.DEV)
 * export const useMails = routeLoader$(() => devMailbox.list())
 * ```
 *
 * Nothing here imports the server at module level: this module is part of the binding's entry.
 */
import type { RequestHandler } from "@builder.io/qwik-city"
import type { InvitationMail } from "@latchkey/core/organizations"
import type { SendVerificationRequestParams } from "@latchkey/core/providers/email"
import type { SendPasswordMailParams } from "@latchkey/core/providers/password"

/** One kept mail. */
export interface DevMail {
  id: number
  to: string
  /** `sign-in` (an email link) or the password mail's purpose (`verify`, `reset`, …). */
  purpose: string
  subject: string
  /** `null` for a notice without a link. */
  url: string | null
  /** When the link stops working (ISO 8601), `null` without a link. */
  expires: string | null
  /** ISO 8601. */
  sentAt: string
}

/** A mail as it is handed to the store. */
export type NewDevMail = Omit<DevMail, "id" | "sentAt">

/** Where the mails are kept: memory by default; the demo keeps them in its database. */
export interface DevMailStore {
  add(mail: NewDevMail): Promise<void> | void
  /** Newest first. */
  list(): Promise<DevMail[]> | DevMail[]
}

/** Mails kept by the memory store; the oldest go first. */
const KEEP = 100

/**
 * Mails in this process's memory, the newest {@link KEEP}. Kept on `globalThis`: Vite's dev
 * server may load this module more than once (the config and the page through different module
 * graphs, or again after an edit), and every copy must see the same mails.
 */
export function memoryMailStore(): DevMailStore {
  const key = Symbol.for("@latchkey/qwik/dev-mailbox")
  const scope = globalThis as { [key]?: { next: number; mails: DevMail[] } }
  scope[key] ??= { next: 1, mails: [] }
  const state = scope[key]
  return {
    add(mail) {
      state.mails.unshift({ ...mail, id: state.next++, sentAt: new Date().toISOString() })
      state.mails.length = Math.min(state.mails.length, KEEP)
    },
    list: () => state.mails.slice(),
  }
}

/** The senders to give the providers, and the list to show. */
export interface DevMailbox {
  /** The Email provider's `sendVerificationRequest`. */
  sendVerificationRequest(params: SendVerificationRequestParams): Promise<void>
  /** The Password provider's `sendPasswordMail`. */
  sendPasswordMail(params: SendPasswordMailParams): Promise<void>
  /** The organizations feature's `sendInvitation`. */
  sendInvitation(mail: InvitationMail): Promise<void>
  /** The kept mails, newest first, once the mails still on their way have arrived. */
  list(): Promise<DevMail[]>
}

/** A dev mailbox over `store`. */
export function createDevMailbox(store: DevMailStore = memoryMailStore()): DevMailbox {
  async function keep(mail: NewDevMail): Promise<void> {
    await store.add(mail)
    // The link itself stays out of the log: it signs in (or resets) whoever opens it.
    console.log(`[dev mailbox] ${mail.purpose} mail for ${mail.to}: open /dev/mailbox/`)
  }
  return {
    sendVerificationRequest: ({ identifier, url, expires }) =>
      keep({
        to: identifier,
        purpose: "sign-in",
        subject: `Sign in to ${new URL(url).host}`,
        url,
        expires: expires.toISOString(),
      }),
    sendPasswordMail: ({ identifier, purpose, message, url, expires }) =>
      keep({
        to: identifier,
        purpose,
        subject: message.subject,
        url: url ?? null,
        expires: expires?.toISOString() ?? null,
      }),
    sendInvitation: ({ to, organization, role, url, expires }) =>
      keep({
        to,
        purpose: "invitation",
        subject: `Join ${organization.name} as ${role}`,
        url,
        expires: expires.toISOString(),
      }),
    async list() {
      // Mails leave after their request's answer: wait for the ones still on their way, so a
      // mail is listed as soon as the page that asked for it has answered. Loaded here, on the
      // server, not with the binding's entry.
      const { flushDeferred } = await import("@latchkey/core")
      await flushDeferred()
      return store.list()
    },
  }
}

/** The app's dev mailbox, in memory: what `npx latchkey init` writes uses it. */
export const devMailbox: DevMailbox = /*#__PURE__*/ createDevMailbox()

/** Whether a client address is this machine (IPv4, IPv6, or IPv4-mapped IPv6). */
export function isLoopback(ip: string | null | undefined): boolean {
  if (!ip) return false
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip
  return v4.startsWith("127.") || ip === "::1"
}

/**
 * The mailbox page's `onRequest`: a 404 unless `enabled` (the app's `import.meta.env.DEV`) and
 * the client is on this machine, and the page kept out of indexes and referrers.
 */
export function devMailboxGuard(enabled: boolean): RequestHandler {
  return ({ clientConn, error, headers }) => {
    if (!enabled || !isLoopback(clientConn.ip)) throw error(404, "Not found")
    headers.set("X-Robots-Tag", "noindex, nofollow")
    headers.set("Referrer-Policy", "no-referrer")
    headers.set("Cache-Control", "no-store")
  }
}
