import {
  type Adapter,
  type AdapterInvitation,
  type AdapterOrganization,
  type AdapterUser,
  type MemberChange,
  organizationAdapterMethods,
} from "@latchkey/core/adapters"
import { describe, expect, it } from "vitest"
import { type ContractContext, createUser, dateWithMs, newSession } from "./context.js"

type OrganizationAdapter = Required<Pick<Adapter, (typeof organizationAdapterMethods)[number]>>

const roomy = { maxPerUser: 1000 }
const hour = 3_600_000

/** A slug no other test produces: lower-case letters, digits and dashes. */
const newSlug = (prefix = "org") =>
  `${prefix}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`

/** An organization as the core proposes it (an id the adapter may replace). */
function newOrganization(overrides: Partial<AdapterOrganization> = {}): AdapterOrganization {
  return {
    id: crypto.randomUUID(),
    name: "Acme Corporation",
    slug: newSlug(),
    createdAt: dateWithMs(),
    ...overrides,
  }
}

/** An invitation as the core makes it, unexpired for an hour after `now`. */
function newInvitation(
  organizationId: string,
  inviterId: string,
  overrides: Partial<AdapterInvitation> = {},
): AdapterInvitation {
  const now = Date.now()
  return {
    id: crypto.randomUUID(),
    organizationId,
    email: `${crypto.randomUUID()}@example.com`,
    role: "member",
    inviterId,
    expiresAt: new Date(now + hour + 7),
    createdAt: new Date(now + 3),
    ...overrides,
  }
}

/**
 * The organizations methods: an organization and its owner in one step, a slug unique without
 * regard to case, the per-user limit, one membership per user, one pending invitation per
 * address, single-use acceptance, and an owner always left, also when requests race. Skipped
 * for adapters without them.
 */
export function organizationTests(t: ContractContext) {
  describe("organizations (optional)", () => {
    const methods = (ctx: { skip: () => void }): OrganizationAdapter => {
      const adapter = t.raw
      if (!organizationAdapterMethods.every((name) => typeof adapter[name] === "function")) {
        ctx.skip()
      }
      return adapter as OrganizationAdapter
    }

    /** Creates an organization owned by `owner`; fails the test on a refusal. */
    async function create(
      a: OrganizationAdapter,
      owner: AdapterUser,
      overrides: Partial<AdapterOrganization> = {},
    ): Promise<AdapterOrganization> {
      const org = await a.createOrganization(newOrganization(overrides), owner.id, roomy)
      if (typeof org === "string") throw new Error(`createOrganization refused: ${org}`)
      return org
    }

    /** Makes `user` a member with `role` through an invitation, as the feature does. */
    async function join(
      a: OrganizationAdapter,
      org: AdapterOrganization,
      inviter: AdapterUser,
      user: AdapterUser,
      role: string,
      now = new Date(),
    ) {
      const invitation = await a.createInvitation(
        newInvitation(org.id, inviter.id, {
          email: user.email,
          role,
          expiresAt: new Date(now.getTime() + hour),
        }),
      )
      const member = await a.acceptInvitation(invitation.id, user.id, now)
      if (!member) throw new Error("acceptInvitation found no invitation")
      return member
    }

    const owners = async (a: OrganizationAdapter, organizationId: string) =>
      (await a.listMembers(organizationId)).filter((m) => m.role === "owner").map((m) => m.userId)

    describe("organizations", () => {
      it("createOrganization stores it with its creator as owner; found by id and by slug", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const input = newOrganization({ name: "Ünïcode & Co 🚀" })
        const org = await a.createOrganization(input, owner.id, roomy)
        expect(org).toEqual({ ...input, id: expect.any(String) })
        if (typeof org === "string") return
        expect(await a.getOrganization(org.id)).toEqual(org)
        expect(await a.getOrganizationBySlug(org.slug)).toEqual(org)
        expect(await a.getOrganizationBySlug(org.slug.toUpperCase())).toEqual(org)
        expect(await a.getMember(org.id, owner.id)).toEqual({
          organizationId: org.id,
          userId: owner.id,
          role: "owner",
          createdAt: input.createdAt,
        })
        expect(await a.listOrganizationsByUserId(owner.id)).toEqual([
          { organization: org, role: "owner" },
        ])
      })

      it("an unknown id or slug finds nothing, whatever its shape", async (ctx) => {
        const a = methods(ctx)
        for (const id of [crypto.randomUUID(), "not-an-id", "1", ""]) {
          expect(await a.getOrganization(id)).toBeNull()
          expect(await a.deleteOrganization(id)).toBe(false)
          expect(await a.updateOrganization({ id, name: "x" })).toBeNull()
          expect(await a.listMembers(id)).toEqual([])
          expect(await a.listInvitations(id)).toEqual([])
          expect(await a.getInvitation(id)).toBeNull()
          expect(await a.acceptInvitation(id, "1", new Date())).toBeNull()
        }
        expect(await a.getOrganizationBySlug(newSlug())).toBeNull()
        expect(await a.listOrganizationsByUserId(crypto.randomUUID())).toEqual([])
      })

      it("the slug is stored lower-cased: ACME-x and acme-x are one slug", async (ctx) => {
        const a = methods(ctx)
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        const slug = newSlug("ACME")
        const org = await create(a, ann, { slug })
        expect(org.slug).toBe(slug.toLowerCase())
        expect(await a.createOrganization(newOrganization({ slug }), bob.id, roomy)).toBe(
          "slug-taken",
        )
        const lower = newOrganization({ slug: slug.toLowerCase() })
        expect(await a.createOrganization(lower, bob.id, roomy)).toBe("slug-taken")
        expect(await a.listOrganizationsByUserId(bob.id)).toEqual([])
      })

      it("two users creating ACME-x and acme-x at once make one organization", async (ctx) => {
        const a = methods(ctx)
        const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t.adapter)))
        const slug = newSlug("acme")
        const results = await Promise.all(
          users.map((user, i) =>
            a.createOrganization(
              newOrganization({ slug: i % 2 ? slug.toUpperCase() : slug }),
              user.id,
              roomy,
            ),
          ),
        )
        const made = results.filter((r) => typeof r !== "string")
        expect(made).toHaveLength(1)
        expect(results.filter((r) => r === "slug-taken")).toHaveLength(7)
        expect(await a.getOrganizationBySlug(slug)).toEqual(made[0])
      })

      it("the per-user limit counts the organizations a user created that still exist", async (ctx) => {
        const a = methods(ctx)
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        const bound = { maxPerUser: 2 }
        const first = await a.createOrganization(newOrganization(), ann.id, bound)
        await a.createOrganization(newOrganization(), ann.id, bound)
        expect(await a.createOrganization(newOrganization(), ann.id, bound)).toBe("limit-reached")
        // A membership of someone else's organization is not a creation.
        const bobs = await create(a, bob)
        await join(a, bobs, bob, ann, "admin")
        expect(await a.createOrganization(newOrganization(), bob.id, bound)).not.toBe(
          "limit-reached",
        )
        // Deleting one gives its place back.
        if (typeof first === "string") throw new Error(first)
        expect(await a.deleteOrganization(first.id)).toBe(true)
        expect(typeof (await a.createOrganization(newOrganization(), ann.id, bound))).toBe("object")
        expect(await a.createOrganization(newOrganization(), ann.id, { maxPerUser: 0 })).toBe(
          "limit-reached",
        )
      })

      it("concurrent creates by one user never pass maxPerUser", async (ctx) => {
        const a = methods(ctx)
        const user = await createUser(t.adapter)
        const results = await Promise.all(
          Array.from({ length: 8 }, () =>
            a.createOrganization(newOrganization(), user.id, { maxPerUser: 3 }),
          ),
        )
        expect(results.filter((r) => typeof r !== "string")).toHaveLength(3)
        expect(results.filter((r) => r === "limit-reached")).toHaveLength(5)
        expect(await a.listOrganizationsByUserId(user.id)).toHaveLength(3)
      })

      it("updateOrganization renames, changes the slug (lower-cased), refuses a taken one", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const org = await create(a, owner)
        const other = await create(a, owner)
        expect(await a.updateOrganization({ id: org.id, name: "Renamed" })).toEqual({
          ...org,
          name: "Renamed",
        })
        const slug = newSlug("NEW")
        const moved = { ...org, name: "Renamed", slug: slug.toLowerCase() }
        expect(await a.updateOrganization({ id: org.id, slug })).toEqual(moved)
        expect(await a.getOrganizationBySlug(slug)).toEqual(moved)
        expect(await a.getOrganizationBySlug(org.slug)).toBeNull()
        // Its own slug in other letters is not taken; another organization's is.
        expect(await a.updateOrganization({ id: org.id, slug: slug.toUpperCase() })).toEqual(moved)
        expect(await a.updateOrganization({ id: org.id, slug: other.slug.toUpperCase() })).toBe(
          "slug-taken",
        )
        expect(await a.updateOrganization({ id: org.id })).toEqual(moved)
        expect(await a.getOrganization(other.id)).toEqual(other)
      })

      it("deleting an organization removes its members and invitations, and frees its slug", async (ctx) => {
        const a = methods(ctx)
        const [owner, member] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        const kept = await create(a, owner)
        await join(a, org, owner, member, "admin")
        await join(a, kept, owner, member, "member")
        const invitation = await a.createInvitation(newInvitation(org.id, owner.id))
        expect(await a.deleteOrganization(org.id)).toBe(true)
        expect(await a.deleteOrganization(org.id)).toBe(false)
        expect(await a.getOrganization(org.id)).toBeNull()
        expect(await a.getMember(org.id, owner.id)).toBeNull()
        expect(await a.getMember(org.id, member.id)).toBeNull()
        expect(await a.listMembers(org.id)).toEqual([])
        expect(await a.getInvitation(invitation.id)).toBeNull()
        expect(await a.listInvitations(org.id)).toEqual([])
        expect(await a.acceptInvitation(invitation.id, member.id, new Date())).toBeNull()
        expect((await a.listOrganizationsByUserId(member.id)).map((o) => o.organization)).toEqual([
          kept,
        ])
        expect(
          typeof (await a.createOrganization(newOrganization({ slug: org.slug }), owner.id, roomy)),
        ).toBe("object")
      })
    })

    describe("members", () => {
      it("listMembers: oldest first, with each user's name and address", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter, { name: null })
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        await join(a, org, owner, bob, "admin", dateWithMs(2 * hour))
        await join(a, org, owner, ann, "billing", dateWithMs(hour))
        expect(await a.listMembers(org.id)).toEqual([
          {
            organizationId: org.id,
            userId: owner.id,
            role: "owner",
            createdAt: org.createdAt,
            user: { name: null, email: owner.email },
          },
          {
            organizationId: org.id,
            userId: ann.id,
            role: "billing",
            createdAt: dateWithMs(hour),
            user: { name: ann.name, email: ann.email },
          },
          {
            organizationId: org.id,
            userId: bob.id,
            role: "admin",
            createdAt: dateWithMs(2 * hour),
            user: { name: bob.name, email: bob.email },
          },
        ])
      })

      it("listOrganizationsByUserId: the user's organizations with their role, oldest membership first", async (ctx) => {
        const a = methods(ctx)
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        const later = await create(a, ann, { createdAt: dateWithMs(5 * hour) })
        const earlier = await create(a, ann, { createdAt: dateWithMs(-hour) })
        const joined = await create(a, ann)
        await join(a, joined, ann, bob, "admin", dateWithMs(hour))
        expect(await a.listOrganizationsByUserId(ann.id)).toEqual([
          { organization: earlier, role: "owner" },
          { organization: joined, role: "owner" },
          { organization: later, role: "owner" },
        ])
        expect(await a.listOrganizationsByUserId(bob.id)).toEqual([
          { organization: joined, role: "admin" },
        ])
      })

      it("a member of one organization is no member of another", async (ctx) => {
        const a = methods(ctx)
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        const annsOrg = await create(a, ann)
        const bobsOrg = await create(a, bob)
        expect(await a.getMember(bobsOrg.id, ann.id)).toBeNull()
        expect(await a.updateMemberRole(bobsOrg.id, ann.id, "owner")).toBe("not-found")
        expect(await a.removeMember(bobsOrg.id, ann.id)).toBe("not-found")
        expect(await a.removeMember(crypto.randomUUID(), ann.id)).toBe("not-found")
        expect(await a.getMember(annsOrg.id, ann.id)).not.toBeNull()
      })

      it("updateMemberRole and removeMember: done, or refused for the last owner", async (ctx) => {
        const a = methods(ctx)
        const [owner, admin] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        await join(a, org, owner, admin, "admin")
        expect(await a.updateMemberRole(org.id, owner.id, "admin")).toBe("last-owner")
        expect(await a.removeMember(org.id, owner.id)).toBe("last-owner")
        expect(await a.updateMemberRole(org.id, owner.id, "owner")).toBe("done")
        expect(await a.updateMemberRole(org.id, admin.id, "billing")).toBe("done")
        expect((await a.getMember(org.id, admin.id))?.role).toBe("billing")
        // With a second owner, either one may go.
        expect(await a.updateMemberRole(org.id, admin.id, "owner")).toBe("done")
        expect(await a.updateMemberRole(org.id, owner.id, "member")).toBe("done")
        expect(await a.removeMember(org.id, admin.id)).toBe("last-owner")
        expect(await a.removeMember(org.id, owner.id)).toBe("done")
        expect(await a.getMember(org.id, owner.id)).toBeNull()
        expect(await a.removeMember(org.id, owner.id)).toBe("not-found")
        expect(await owners(a, org.id)).toEqual([admin.id])
      })

      it("two owners removing or demoting each other at once never leave it ownerless (20 rounds)", async (ctx) => {
        const a = methods(ctx)
        const [ann, bob] = [await createUser(t.adapter), await createUser(t.adapter)]
        // Rounds alternate: both remove, both demote, one removes while the other demotes.
        const removes = (round: number, who: number) =>
          round % 3 === 0 || (round % 3 === 2 && who === 0)
        const change = async (
          org: string,
          user: string,
          round: number,
          who: number,
        ): Promise<MemberChange> =>
          removes(round, who)
            ? await a.removeMember(org, user)
            : await a.updateMemberRole(org, user, "admin")
        for (let round = 0; round < 20; round++) {
          const org = await create(a, ann)
          await join(a, org, ann, bob, "owner")
          const results = await Promise.all([
            change(org.id, bob.id, round, 0),
            change(org.id, ann.id, round, 1),
          ])
          expect([...results].sort()).toEqual(["done", "last-owner"])
          expect(await owners(a, org.id)).toHaveLength(1)
        }
      })

      it("a user's memberships and sent invitations go with the user; the organization stays", async (ctx) => {
        const a = methods(ctx)
        const [owner, admin] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        await join(a, org, owner, admin, "admin")
        const sent = await a.createInvitation(newInvitation(org.id, admin.id))
        await t.adapter.deleteUser(admin.id)
        expect(await a.getMember(org.id, admin.id)).toBeNull()
        expect(await a.getInvitation(sent.id)).toBeNull()
        expect((await a.listMembers(org.id)).map((m) => m.userId)).toEqual([owner.id])
        expect(await a.getOrganization(org.id)).toEqual(org)
      })
    })

    describe("invitations", () => {
      it("createInvitation stores it; getInvitation and listInvitations (oldest first) find it", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const org = await create(a, owner)
        const later = newInvitation(org.id, owner.id, {
          role: "admin",
          createdAt: dateWithMs(hour),
        })
        const earlier = newInvitation(org.id, owner.id, { createdAt: dateWithMs() })
        // The id may be the adapter's own; everything else is kept exactly.
        const second = await a.createInvitation(later)
        const first = await a.createInvitation(earlier)
        expect(second).toEqual({ ...later, id: expect.any(String) })
        expect(first).toEqual({ ...earlier, id: expect.any(String) })
        expect(await a.getInvitation(first.id)).toEqual(first)
        expect(await a.listInvitations(org.id)).toEqual([first, second])
      })

      it("a re-invite replaces the pending invitation of that address; others stay", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const org = await create(a, owner)
        const otherOrg = await create(a, owner)
        const email = `${crypto.randomUUID()}@example.com`
        const old = await a.createInvitation(newInvitation(org.id, owner.id, { email }))
        const elsewhere = await a.createInvitation(newInvitation(otherOrg.id, owner.id, { email }))
        const renewed = await a.createInvitation(
          newInvitation(org.id, owner.id, { email, role: "admin" }),
        )
        expect(await a.getInvitation(old.id)).toBeNull()
        expect(await a.listInvitations(org.id)).toEqual([renewed])
        expect(await a.listInvitations(otherOrg.id)).toEqual([elsewhere])
        expect(await a.acceptInvitation(old.id, owner.id, new Date())).toBeNull()
      })

      it("8 concurrent invitations of one address leave one pending invitation", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const org = await create(a, owner)
        const email = `${crypto.randomUUID()}@example.com`
        const made = await Promise.all(
          Array.from({ length: 8 }, () =>
            a.createInvitation(newInvitation(org.id, owner.id, { email })),
          ),
        )
        const pending = await a.listInvitations(org.id)
        expect(pending).toHaveLength(1)
        expect(made.map((i) => i.id)).toContain(pending[0]!.id)
      })

      it("deleteInvitation: only through its own organization, once", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const org = await create(a, owner)
        const otherOrg = await create(a, owner)
        const invitation = await a.createInvitation(newInvitation(org.id, owner.id))
        expect(await a.deleteInvitation(otherOrg.id, invitation.id)).toBe(false)
        expect(await a.getInvitation(invitation.id)).toEqual(invitation)
        expect(await a.deleteInvitation(org.id, invitation.id)).toBe(true)
        expect(await a.deleteInvitation(org.id, invitation.id)).toBe(false)
        expect(await a.deleteInvitation(org.id, "not-an-id")).toBe(false)
        expect(await a.getInvitation(invitation.id)).toBeNull()
      })

      it("acceptInvitation makes a member with its role from `now`, and deletes the invitation", async (ctx) => {
        const a = methods(ctx)
        const [owner, user] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        const invitation = await a.createInvitation(
          newInvitation(org.id, owner.id, { email: user.email, role: "billing" }),
        )
        const now = new Date(Date.now() + 11)
        const member = { organizationId: org.id, userId: user.id, role: "billing", createdAt: now }
        expect(await a.acceptInvitation(invitation.id, user.id, now)).toEqual(member)
        expect(await a.getMember(org.id, user.id)).toEqual(member)
        expect(await a.getInvitation(invitation.id)).toBeNull()
        expect(await a.acceptInvitation(invitation.id, user.id, now)).toBeNull()
      })

      it("an existing membership is kept as it is on accept", async (ctx) => {
        const a = methods(ctx)
        const [owner, user] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        const admin = await join(a, org, owner, user, "admin", dateWithMs())
        const invitation = await a.createInvitation(
          newInvitation(org.id, owner.id, { email: user.email, role: "member" }),
        )
        expect(await a.acceptInvitation(invitation.id, user.id, new Date())).toEqual(admin)
        expect(await a.getMember(org.id, user.id)).toEqual(admin)
        expect(await a.getInvitation(invitation.id)).toBeNull()
      })

      it("accepting after expiry or after the invitation was deleted finds nothing", async (ctx) => {
        const a = methods(ctx)
        const [owner, user] = [await createUser(t.adapter), await createUser(t.adapter)]
        const org = await create(a, owner)
        const invitation = await a.createInvitation(newInvitation(org.id, owner.id))
        expect(await a.acceptInvitation(invitation.id, user.id, invitation.expiresAt)).toBeNull()
        const later = new Date(invitation.expiresAt.getTime() + 1)
        expect(await a.acceptInvitation(invitation.id, user.id, later)).toBeNull()
        expect(await a.getMember(org.id, user.id)).toBeNull()
        const cancelled = await a.createInvitation(newInvitation(org.id, owner.id))
        await a.deleteInvitation(org.id, cancelled.id)
        expect(await a.acceptInvitation(cancelled.id, user.id, new Date())).toBeNull()
        expect(await a.getMember(org.id, user.id)).toBeNull()
      })

      it("8 concurrent accepts of one invitation make one membership", async (ctx) => {
        const a = methods(ctx)
        const owner = await createUser(t.adapter)
        const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t.adapter)))
        const org = await create(a, owner)
        // One user accepting eight times (a double click), then eight users racing for one link.
        const once = await a.createInvitation(newInvitation(org.id, owner.id))
        const same = await Promise.all(
          users.map(() => a.acceptInvitation(once.id, users[0]!.id, new Date())),
        )
        expect(same.filter(Boolean)).toHaveLength(1)
        const race = await a.createInvitation(newInvitation(org.id, owner.id))
        const raced = await Promise.all(
          users.slice(1).map((user) => a.acceptInvitation(race.id, user.id, new Date())),
        )
        expect(raced.filter(Boolean)).toHaveLength(1)
        const listed = await a.listMembers(org.id)
        expect(listed).toHaveLength(3)
        expect(listed.filter((m) => m.userId === users[0]!.id)).toHaveLength(1)
      })
    })

    describe("the active organization of a database session", () => {
      it("updateSession writes it, getSessionAndUser returns it, a slide keeps it, null clears it", async (ctx) => {
        const a = methods(ctx)
        const user = await createUser(t.adapter)
        const org = await create(a, user)
        const session = await t.adapter.createSession(newSession(user.id))
        const read = async () =>
          (await t.adapter.getSessionAndUser(session.sessionToken))?.session.activeOrganizationId ??
          null
        expect(await read()).toBeNull()
        await t.adapter.updateSession({
          sessionToken: session.sessionToken,
          activeOrganizationId: org.id,
        })
        expect(await read()).toBe(org.id)
        await t.adapter.updateSession({
          sessionToken: session.sessionToken,
          expires: dateWithMs(hour),
        })
        expect(await read()).toBe(org.id)
        await t.adapter.updateSession({
          sessionToken: session.sessionToken,
          activeOrganizationId: null,
        })
        expect(await read()).toBeNull()
      })
    })
  })
}
