/**
 * Organizations through `Auth()` (issue 45): every rule of docs/design/organizations.md and
 * every weakness the issue lists, for JWT and database sessions. Run with the memory adapter
 * here and on PostgreSQL (PGlite, and the server at DATABASE_URL) in
 * packages/adapter-postgres/test. Each test fails if the protection it names is removed.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import {
  endAllSessions,
  listOrganizationMembers,
  removeUnprovenUsers,
  removeUserFromOrganizations,
  transferOrganizationOwnership,
} from "../../src/admin.js"
import { Auth } from "../../src/index.js"
import type { OrganizationEvent } from "../../src/kernel/events/callbacks.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import {
  getActiveOrganization,
  hasPermission,
  type InvitationMail,
  Organizations,
} from "../../src/organizations.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, recordingLogger, SECRET } from "../auth/helpers.js"

type Strategy = "jwt" | "database"

afterEach(() => vi.useRealTimers())

function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
type Json = any

class Browser extends PasskeyClient<AuthConfig> {
  async org(op: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await this.send(`/organization/${op}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
    })
    const type = res.headers.get("content-type") ?? ""
    const json: Json = type.includes("json") ? await res.json() : null
    return { status: res.status, body: json, res }
  }

  async get(path: string) {
    const res = await this.send(`/organization${path}`)
    const type = res.headers.get("content-type") ?? ""
    const json: Json = type.includes("json") ? await res.json() : null
    return { status: res.status, body: json, res }
  }

  /** A request to the app's own route, carrying this browser's cookies. */
  appRequest(): Request {
    return new Request(`${ORIGIN}/projects`, { headers: { cookie: this.cookieHeader() } })
  }
}

let makeAdapter: () => Promise<Adapter> = async () => MemoryAdapter()

async function setup(strategy: Strategy, options: { maxPerUser?: number } = {}) {
  const adapter = await makeAdapter()
  const rec = recordingLogger()
  const mails: InvitationMail[] = []
  const events: OrganizationEvent[] = []
  const config: AuthConfig = {
    providers: [Passkey()],
    adapter,
    secret: SECRET,
    trustHost: true,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    logger: rec.logger,
    store: new MemoryStore(),
    events: { organization: (event) => void events.push(event) },
    organizations: Organizations({
      ...options,
      roles: { billing: { invoice: ["read", "pay"] }, viewer: {} },
      sendInvitation: (mail) => void mails.push(mail),
    }),
  }
  const browser = () => new Browser({ Auth, config, origin: ORIGIN })

  /** A user signed up with a passkey; `proven`: the address confirmed (as a mailed link does). */
  async function user(email: string, proven = true) {
    const b = browser()
    const key = softwareAuthenticator()
    const res = await b.send(
      `/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`,
    )
    const credential = key.register(((await res.json()) as Json).options, { origin: ORIGIN })
    const signedIn = await b.callback("register", credential)
    expect(signedIn.url).toBe(`${ORIGIN}/`)
    let row = (await adapter.getUserByEmail!(email))!
    if (proven) row = await adapter.updateUser!({ id: row.id, emailVerified: new Date() })
    return { b, id: row.id, email }
  }

  /** An organization made by `owner`, returning its id. */
  async function organization(owner: Browser, slug: string) {
    const made = await owner.org("create", { name: `Org ${slug}`, slug })
    expect(made.status).toBe(200)
    return made.body.organization.id as string
  }

  /** `from` invites `email` as `role`; returns the mailed link's query. */
  async function invite(from: Browser, organizationId: string, email: string, role = "member") {
    const sent = await from.org("invite", { organizationId, email, role })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const mail = mails.at(-1)!
    expect(mail.to).toBe(email)
    const url = new URL(mail.url)
    return {
      invitationId: url.searchParams.get("invitationId")!,
      token: url.searchParams.get("token")!,
      url,
    }
  }

  /** Two users of one organization: an owner and a member (invited and accepted). */
  async function team(memberRole = "member") {
    const owner = await user("owner@example.com")
    const member = await user("member@example.com")
    const organizationId = await organization(owner.b, "acme")
    const link = await invite(owner.b, organizationId, member.email, memberRole)
    expect((await member.b.org("accept", link)).status).toBe(200)
    return { owner, member, organizationId }
  }

  return { adapter, config, rec, mails, events, browser, user, organization, invite, team }
}

/** Registers the scenarios for one adapter (a fresh one per test from `adapter`). */
export function organizationScenarios(o: { name: string; adapter: () => Promise<Adapter> }) {
  describe(`organizations (${o.name})`, () => {
    beforeEach(() => {
      makeAdapter = o.adapter
    })

    describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
      it("create, list mine, rename, delete: the creator is the owner; the slug is one whatever its case", async () => {
        const s = await setup(strategy)
        const ann = await s.user("ann@example.com")
        const made = await ann.b.org("create", { name: "Acme", slug: "ACME-x" })
        expect(made.status).toBe(200)
        expect(made.body.organization).toMatchObject({ name: "Acme", slug: "acme-x" })
        const id = made.body.organization.id
        const again = await ann.b.org("create", { name: "Other", slug: "acme-X" })
        expect([again.status, again.body.code]).toEqual([409, "slug-taken"])
        const bad = await ann.b.org("create", { name: "Bad", slug: "-no-" })
        expect([bad.status, bad.body.code]).toEqual([400, "invalid-input"])
        const mine = await ann.b.get("")
        expect(mine.body.organizations).toEqual([expect.objectContaining({ id, role: "owner" })])
        const renamed = await ann.b.org("update", { organizationId: id, name: "Acme Inc" })
        expect(renamed.body.organization.name).toBe("Acme Inc")
        expect((await ann.b.org("delete", { organizationId: id })).status).toBe(200)
        expect((await ann.b.get("")).body.organizations).toEqual([])
        expect(s.events.map((e) => e.type)).toEqual([
          "organization-created",
          "organization-deleted",
        ])
      })

      it("the per-user limit holds under concurrent creates", async () => {
        const s = await setup(strategy, { maxPerUser: 2 })
        const ann = await s.user("ann@example.com")
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => ann.b.org("create", { name: "x", slug: `org-${i}` })),
        )
        expect(answers.filter((a) => a.status === 200)).toHaveLength(2)
        expect(answers.filter((a) => a.body.code === "limit-reached")).toHaveLength(4)
        expect(await s.adapter.listOrganizationsByUserId!(ann.id)).toHaveLength(2)
      })

      it("an invitation by mail: the invited, proven user accepts from the page's form; events; no token in answers or logs", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const bob = await s.user("bob@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const sent = await owner.b.org("invite", {
          organizationId,
          email: "Bob@Example.com",
          role: "admin",
        })
        expect(sent.status).toBe(200)
        const link = new URL(s.mails[0]!.url)
        const token = link.searchParams.get("token")!
        expect(JSON.stringify(sent.body)).not.toContain(token)
        expect(s.mails[0]).toMatchObject({ to: "bob@example.com", role: "admin" })
        // Opening the link spends nothing: a mail scanner's GET leaves it usable.
        const page = await bob.b.send(`${link.pathname.replace("/auth", "")}${link.search}`)
        const html = await page.text()
        expect(html).toContain("Org acme")
        expect(html).toContain('name="csrfToken"')
        const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)![1]!
        const accepted = await bob.b.send("/organization/accept", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
          body: new URLSearchParams({
            csrfToken,
            invitationId: link.searchParams.get("invitationId")!,
            token,
            callbackUrl: "/team",
          }).toString(),
        })
        expect(accepted.status).toBe(303)
        expect(accepted.headers.get("location")).toBe(`${ORIGIN}/team`)
        // The joined organization is the session's active one.
        const active = await getActiveOrganization(s.config, bob.b.appRequest())
        expect(active).toMatchObject({ organization: { id: organizationId }, role: "admin" })
        expect(s.events.map((e) => e.type)).toEqual([
          "organization-created",
          "invitation-sent",
          "invitation-accepted",
          "member-added",
        ])
        const logged = JSON.stringify(s.rec.calls, (_k, v) => (v instanceof Error ? v.message : v))
        expect(logged).not.toContain(token)
      })

      it("a signed-out visitor with the link goes to sign-in and comes back to it", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const { url } = await s.invite(owner.b, organizationId, "new@example.com")
        const res = await s.browser().send(`${url.pathname.replace("/auth", "")}${url.search}`)
        expect(res.status).toBe(302)
        const to = new URL(res.headers.get("location")!)
        expect(to.pathname).toBe("/auth/signin")
        expect(to.searchParams.get("callbackUrl")).toBe(url.href)
      })

      it("another account holding the link is refused (and the link still works for the invited)", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const bob = await s.user("bob@example.com")
        const eve = await s.user("eve@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const link = await s.invite(owner.b, organizationId, bob.email)
        const stolen = await eve.b.org("accept", link)
        expect([stolen.status, stolen.body.code]).toEqual([403, "invitation-other-address"])
        expect(JSON.stringify(stolen.body)).not.toContain(bob.email)
        expect(await s.adapter.getMember!(organizationId, eve.id)).toBeNull()
        expect((await bob.b.org("accept", link)).status).toBe(200)
      })

      it("an account whose address is not proven is refused", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const squatter = await s.user("bob@example.com", false)
        const organizationId = await s.organization(owner.b, "acme")
        const link = await s.invite(owner.b, organizationId, "bob@example.com")
        const res = await squatter.b.org("accept", link)
        expect([res.status, res.body.code]).toEqual([403, "address-unproven"])
        expect(await s.adapter.getMember!(organizationId, squatter.id)).toBeNull()
      })

      it("accepted twice at once: one membership", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const bob = await s.user("bob@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const link = await s.invite(owner.b, organizationId, bob.email)
        const answers = await Promise.all([bob.b.org("accept", link), bob.b.org("accept", link)])
        expect(answers.map((a) => a.status).sort()).toEqual([200, 410])
        expect(await s.adapter.listMembers!(organizationId)).toHaveLength(2)
        // Single use: once more, refused.
        expect((await bob.b.org("accept", link)).status).toBe(410)
      })

      it("after cancel, after expiry, after a re-invite replaced it: refused", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const bob = await s.user("bob@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const first = await s.invite(owner.b, organizationId, bob.email)
        const second = await s.invite(owner.b, organizationId, bob.email)
        expect((await bob.b.org("accept", first)).body.code).toBe("invitation-invalid")
        const cancel = await owner.b.org("cancel-invitation", {
          organizationId,
          invitationId: second.invitationId,
        })
        expect(cancel.status).toBe(200)
        expect((await bob.b.org("accept", second)).body.code).toBe("invitation-invalid")
        const third = await s.invite(owner.b, organizationId, bob.email)
        travel(48 * 3600 + 1)
        expect((await bob.b.org("accept", third)).status).toBe(410)
        expect(await s.adapter.getMember!(organizationId, bob.id)).toBeNull()
      })

      it("after the inviter lost the right to invite (demoted, removed), the invitation admits nobody", async () => {
        const s = await setup(strategy)
        const { owner, member: admin, organizationId } = await s.team("admin")
        const bob = await s.user("bob@example.com")
        const carol = await s.user("carol@example.com")
        const toBob = await s.invite(admin.b, organizationId, bob.email, "member")
        const toCarol = await s.invite(admin.b, organizationId, carol.email, "member")
        await owner.b.org("update-role", { organizationId, userId: admin.id, role: "member" })
        expect((await bob.b.org("accept", toBob)).status).toBe(410)
        await owner.b.org("update-role", { organizationId, userId: admin.id, role: "admin" })
        await owner.b.org("remove-member", { organizationId, userId: admin.id })
        expect((await carol.b.org("accept", toCarol)).status).toBe(410)
        expect(await s.adapter.listMembers!(organizationId)).toHaveLength(1)
      })

      it("an invitation mailed before the inviter's account state moved is void after it", async () => {
        const s = await setup(strategy)
        const owner = await s.user("owner@example.com")
        const bob = await s.user("bob@example.com")
        const organizationId = await s.organization(owner.b, "acme")
        const link = await s.invite(owner.b, organizationId, bob.email)
        // "Sign out everywhere" moves the state: whoever held the inviter's session meanwhile
        // may have sent it.
        await endAllSessions(s.config, owner.id)
        expect((await bob.b.org("accept", link)).status).toBe(410)
        expect(await s.adapter.getMember!(organizationId, bob.id)).toBeNull()
      })

      it("nobody grants a role above their own: invitations, promotions, their own role, an owner's", async () => {
        const s = await setup(strategy)
        const { owner, member: admin, organizationId } = await s.team("admin")
        const expectRefused = async (answer: Promise<{ status: number; body: Json }>) => {
          const { status, body } = await answer
          expect([status, body.code]).toEqual([403, "role-above-yours"])
        }
        await expectRefused(
          admin.b.org("invite", { organizationId, email: "x@example.com", role: "owner" }),
        )
        // `billing` pays invoices, which an admin cannot.
        await expectRefused(
          admin.b.org("invite", { organizationId, email: "x@example.com", role: "billing" }),
        )
        await expectRefused(
          admin.b.org("update-role", { organizationId, userId: admin.id, role: "billing" }),
        )
        await expectRefused(
          admin.b.org("update-role", { organizationId, userId: admin.id, role: "owner" }),
        )
        await expectRefused(
          admin.b.org("update-role", { organizationId, userId: owner.id, role: "member" }),
        )
        await expectRefused(admin.b.org("remove-member", { organizationId, userId: owner.id }))
        const unknown = await admin.b.org("invite", {
          organizationId,
          email: "x@example.com",
          role: "nope",
        })
        expect(unknown.status).toBe(404)
        // Within their own: allowed.
        const viewer = await admin.b.org("invite", {
          organizationId,
          email: "v@example.com",
          role: "viewer",
        })
        expect(viewer.status).toBe(200)
        expect((await s.adapter.getMember!(organizationId, owner.id))?.role).toBe("owner")
        // A member may invite nobody.
        const { member: plain, organizationId: other } = await (async () => {
          const m = await s.user("plain@example.com")
          const link = await s.invite(owner.b, organizationId, m.email)
          await m.b.org("accept", link)
          return { member: m, organizationId }
        })()
        const refused = await plain.b.org("invite", {
          organizationId: other,
          email: "y@example.com",
          role: "member",
        })
        expect([refused.status, refused.body.code]).toEqual([403, "forbidden"])
      })

      it("the last owner cannot leave, be demoted or be removed", async () => {
        const s = await setup(strategy)
        const { owner, organizationId } = await s.team("admin")
        const leave = await owner.b.org("leave", { organizationId })
        expect([leave.status, leave.body.code]).toEqual([409, "last-owner"])
        const demote = await owner.b.org("update-role", {
          organizationId,
          userId: owner.id,
          role: "admin",
        })
        expect([demote.status, demote.body.code]).toEqual([409, "last-owner"])
        const self = await owner.b.org("remove-member", { organizationId, userId: owner.id })
        expect([self.status, self.body.code]).toEqual([409, "last-owner"])
        expect((await s.adapter.getMember!(organizationId, owner.id))?.role).toBe("owner")
      })

      it("two owners removing, or demoting, each other at once: one owner is always left", async () => {
        for (const op of ["remove-member", "update-role"] as const) {
          const s = await setup(strategy)
          const { owner: a, member: b, organizationId } = await s.team("owner")
          const body = (userId: string) => ({ organizationId, userId, role: "member" })
          const answers = await Promise.all([a.b.org(op, body(b.id)), b.b.org(op, body(a.id))])
          expect(answers.filter((x) => x.status === 200)).toHaveLength(1)
          const owners = (await s.adapter.listMembers!(organizationId)).filter(
            (m) => m.role === "owner",
          )
          expect(owners).toHaveLength(1)
        }
      })

      it("a removed member's next request: no active organization, no permission, without signing out", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team("billing")
        const can = () =>
          hasPermission(s.config, { request: member.b.appRequest() }, { invoice: ["pay"] })
        expect(await can()).toBe(true)
        expect((await member.b.get("")).body.active.organization.id).toBe(organizationId)
        // A role change holds on the next request.
        await owner.b.org("update-role", { organizationId, userId: member.id, role: "viewer" })
        expect(await can()).toBe(false)
        await owner.b.org("update-role", { organizationId, userId: member.id, role: "billing" })
        expect(await can()).toBe(true)
        const removed = await owner.b.org("remove-member", { organizationId, userId: member.id })
        expect(removed.status).toBe(200)
        expect(await can()).toBe(false)
        expect(await getActiveOrganization(s.config, member.b.appRequest())).toBeNull()
        const list = await member.b.get("")
        expect(list.status).toBe(200)
        expect(list.body).toMatchObject({ organizations: [], active: null })
        // Still signed in: only the organization is gone.
        expect((await (await member.b.send("/session")).json()) as Json).toMatchObject({
          user: { email: member.email },
        })
        expect(s.events.map((e) => e.type)).toContain("member-removed")
      })

      it("a deleted organization is nobody's active one on their next request", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team("admin")
        expect(await getActiveOrganization(s.config, member.b.appRequest())).not.toBeNull()
        const byAdmin = await member.b.org("delete", { organizationId })
        expect([byAdmin.status, byAdmin.body.code]).toEqual([403, "forbidden"])
        expect((await owner.b.org("delete", { organizationId })).status).toBe(200)
        expect(await getActiveOrganization(s.config, member.b.appRequest())).toBeNull()
        expect(await s.adapter.getMember!(organizationId, member.id)).toBeNull()
      })

      it("set-active: only an organization the user belongs to; cleared with an empty id", async () => {
        const s = await setup(strategy)
        const { owner, organizationId } = await s.team()
        const outsider = await s.user("out@example.com")
        const refused = await outsider.b.org("set-active", { organizationId })
        expect([refused.status, refused.body.code]).toEqual([404, "not-found"])
        expect(await getActiveOrganization(s.config, outsider.b.appRequest())).toBeNull()
        expect((await owner.b.org("set-active", { organizationId })).status).toBe(200)
        expect(await getActiveOrganization(s.config, owner.b.appRequest())).toMatchObject({
          role: "owner",
        })
        expect((await owner.b.org("set-active", { organizationId: "" })).status).toBe(200)
        expect(await getActiveOrganization(s.config, owner.b.appRequest())).toBeNull()
      })

      it("an id of another organization is not found, on every operation", async () => {
        const s = await setup(strategy)
        const { owner: a, organizationId: orgA } = await s.team()
        const b = await s.user("b-owner@example.com")
        const orgB = await s.organization(b.b, "beta")
        const bMember = await s.user("b-member@example.com")
        await bMember.b.org("accept", await s.invite(b.b, orgB, bMember.email))
        const bInvite = await s.invite(b.b, orgB, "pending@example.com")
        const attempts: [string, Record<string, unknown>][] = [
          ["update", { organizationId: orgB, name: "pwned" }],
          ["delete", { organizationId: orgB }],
          ["set-active", { organizationId: orgB }],
          ["invite", { organizationId: orgB, email: "x@example.com", role: "member" }],
          ["cancel-invitation", { organizationId: orgB, invitationId: bInvite.invitationId }],
          // B's invitation and member named in A's organization: not found there either.
          ["cancel-invitation", { organizationId: orgA, invitationId: bInvite.invitationId }],
          ["update-role", { organizationId: orgB, userId: bMember.id, role: "admin" }],
          ["update-role", { organizationId: orgA, userId: bMember.id, role: "admin" }],
          ["remove-member", { organizationId: orgB, userId: bMember.id }],
          ["remove-member", { organizationId: orgA, userId: bMember.id }],
          ["leave", { organizationId: orgB }],
          ["transfer", { organizationId: orgB, userId: a.id }],
          ["transfer", { organizationId: orgA, userId: bMember.id }],
        ]
        for (const [op, body] of attempts) {
          const res = await a.b.org(op, body)
          expect([op, res.status, res.body.code]).toEqual([op, 404, "not-found"])
        }
        const detail = await a.b.get(`/detail?organizationId=${orgB}`)
        expect(detail.status).toBe(404)
        expect(JSON.stringify(detail.body)).not.toContain("pending@example.com")
        expect(
          await hasPermission(s.config, { request: a.b.appRequest(), organizationId: orgB }, {}),
        ).toBe(false)
        // Nothing of B changed.
        expect((await s.adapter.getOrganization!(orgB))?.name).toBe("Org beta")
        expect(await s.adapter.listMembers!(orgB)).toHaveLength(2)
        expect(await s.adapter.listInvitations!(orgB)).toHaveLength(1)
      })

      it("invited addresses: seen by those who manage invitations, not by members or outsiders", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team()
        await s.invite(owner.b, organizationId, "secret-hire@example.com")
        const asOwner = await owner.b.get(`/detail?organizationId=${organizationId}`)
        expect(asOwner.body.invitations).toEqual([
          expect.objectContaining({ email: "secret-hire@example.com" }),
        ])
        const asMember = await member.b.get(`/detail?organizationId=${organizationId}`)
        expect(asMember.status).toBe(200)
        expect(asMember.body.invitations).toEqual([])
        expect(JSON.stringify(asMember.body)).not.toContain("secret-hire")
      })

      it("CSRF: every change refuses a cross-site post (403 MissingCSRF), changing nothing", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team()
        const link = await s.invite(owner.b, organizationId, "new@example.com")
        const ops: [string, Record<string, unknown>][] = [
          ["create", { name: "x", slug: "csrf-x" }],
          ["update", { organizationId, name: "pwned" }],
          ["delete", { organizationId }],
          ["set-active", { organizationId }],
          ["invite", { organizationId, email: "x@example.com", role: "member" }],
          ["cancel-invitation", { organizationId, invitationId: link.invitationId }],
          ["accept", link],
          ["update-role", { organizationId, userId: member.id, role: "admin" }],
          ["remove-member", { organizationId, userId: member.id }],
          ["leave", { organizationId }],
          ["transfer", { organizationId, userId: member.id }],
        ]
        const { ORGANIZATION_OPS } = await import("../../src/features/organizations/routes.js")
        expect(ops.map(([op]) => op).sort()).toEqual([...ORGANIZATION_OPS].sort())
        for (const [op, body] of ops) {
          const res = await owner.b.org(op, body, { "sec-fetch-site": "cross-site" })
          expect([op, res.status, res.body?.error]).toEqual([op, 403, "MissingCSRF"])
        }
        expect((await s.adapter.getOrganization!(organizationId))?.name).toBe("Org acme")
        expect(await s.adapter.listMembers!(organizationId)).toHaveLength(2)
        expect(await s.adapter.listOrganizationsByUserId!(owner.id)).toHaveLength(1)
      })

      it("signed out: 401 SessionRequired; an unknown op: 400; a change by GET: 405", async () => {
        const s = await setup(strategy)
        const anonymous = s.browser()
        expect((await anonymous.get("")).status).toBe(401)
        const create = await anonymous.org("create", { name: "x", slug: "xx" })
        expect([create.status, create.body.error]).toEqual([401, "SessionRequired"])
        const ann = await s.user("ann@example.com")
        expect((await ann.b.org("nope")).status).toBe(400)
        expect((await ann.b.get("/create")).status).toBe(405)
      })

      it("leave, transfer: a member leaves; an owner hands ownership over and becomes an admin", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team()
        const carol = await s.user("carol@example.com")
        await carol.b.org("accept", await s.invite(owner.b, organizationId, carol.email))
        expect((await carol.b.org("leave", { organizationId })).status).toBe(200)
        const byMember = await member.b.org("transfer", { organizationId, userId: member.id })
        expect(byMember.status).toBe(403)
        expect((await owner.b.org("transfer", { organizationId, userId: member.id })).status).toBe(
          200,
        )
        const roles = Object.fromEntries(
          (await s.adapter.listMembers!(organizationId)).map((m) => [m.userId, m.role]),
        )
        expect(roles).toEqual({ [owner.id]: "admin", [member.id]: "owner" })
        const left = s.events.find((e) => e.type === "member-removed")
        expect(left).toMatchObject({ userId: carol.id, reason: "left" })
      })

      it("operator functions: members, ownership transfer, a user removed from all; a removed sole owner leaves no ownerless organization", async () => {
        const s = await setup(strategy)
        const { owner, member, organizationId } = await s.team("admin")
        const solo = await s.organization(owner.b, "solo")
        expect(
          (await listOrganizationMembers(s.config, organizationId)).map((m) => m.role),
        ).toEqual(["owner", "admin"])
        const removed = await removeUserFromOrganizations(s.config, owner.id)
        expect(removed.ownershipPassed).toEqual([{ organizationId, to: member.id }])
        expect(removed.deleted).toEqual([solo])
        expect(await s.adapter.getOrganization!(solo)).toBeNull()
        expect((await s.adapter.getMember!(organizationId, member.id))?.role).toBe("owner")
        // Back in, and the operator makes them the owner again.
        const link = await s.invite(member.b, organizationId, owner.email, "admin")
        await owner.b.org("accept", link)
        await transferOrganizationOwnership(s.config, organizationId, owner.id)
        expect((await s.adapter.getMember!(organizationId, member.id))?.role).toBe("admin")
        await expect(
          transferOrganizationOwnership(s.config, organizationId, "nobody"),
        ).rejects.toMatchObject({ type: "OrganizationError", code: "not-found" })
      })

      it("the operator's clean-up of unproven users passes a sole owner's organization on", async () => {
        const s = await setup(strategy)
        const squatter = await s.user("squat@example.com", false)
        const organizationId = await s.organization(squatter.b, "squat")
        const other = await s.user("other@example.com")
        await s.adapter.acceptInvitation!(
          (
            await s.adapter.createInvitation!({
              id: crypto.randomUUID(),
              organizationId,
              email: other.email,
              role: "member",
              inviterId: squatter.id,
              expiresAt: new Date(Date.now() + 60_000),
              createdAt: new Date(),
            })
          ).id,
          other.id,
          new Date(),
        )
        const removed = await removeUnprovenUsers(s.config, {
          olderThan: new Date(Date.now() + 60_000),
          limit: 10,
        })
        expect(removed.map((u) => u.id)).toEqual([squatter.id])
        const members = await s.adapter.listMembers!(organizationId)
        expect(members).toEqual([expect.objectContaining({ userId: other.id, role: "owner" })])
      })
    })
  })
}
