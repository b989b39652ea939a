/**
 * The organizations loader, actions and route guard against the real core (memory adapter, the
 * plain `organizations` options as `QwikAuth$` hands them over): create, invite, accept, role
 * change and removal, the refusal's code and message, and the guard ending a removed member's
 * request on their next one, for JWT and database sessions.
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import type { InvitationMail } from "@latchkey/core/organizations"
import { withPlainProviders } from "@latchkey/core/plain-providers"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import { Jar, req } from "../../core/test/auth/helpers.js"
import {
  hasOrganizationPermission,
  requireOrganizationPermission,
} from "../src/organizations-guard.js"
import {
  loadOrganizations,
  type OrganizationActionFailure,
  organizationAction,
} from "../src/organizations-server.js"
import { CONFIG_KEY } from "../src/shared-map.js"
import { ErrorResponse, fakeEvent, ORIGIN, outcome, Redirect } from "./fake-event.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

async function setup(strategy: "jwt" | "database") {
  const adapter = MemoryAdapter()
  const mails: InvitationMail[] = []
  for (const name of ["owner", "member"]) {
    await adapter.createUser!({
      id: name,
      email: `${name}@example.com`,
      name,
      emailVerified: new Date(),
    })
  }
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    session: { strategy },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    // Plain options, as an app writes them in QwikAuth$'s config.
    organizations: {
      roles: { billing: { invoice: ["pay"] } },
      sendInvitation: (mail: InvitationMail) => void mails.push(mail),
    } as never,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async (c) => adapter.getUser!(String(c.username)),
      }),
    ],
  }
  return { config: (await withPlainProviders(config)) as AuthConfig, mails }
}

async function signIn(config: AuthConfig, username: string): Promise<Jar> {
  const jar = new Jar()
  const res = await Auth(
    req("/auth/callback/credentials", { form: { username, password: "x" }, jar, origin: ORIGIN }),
    config,
  )
  jar.take(res)
  return jar
}

function eventFor(config: AuthConfig, jar: Jar, path = "/team/") {
  const fake = fakeEvent(path, { cookie: jar.header() })
  fake.event.sharedMap.set(CONFIG_KEY, Promise.resolve(config))
  return fake
}

/** Runs an action as a `<Form>` post of the browser `jar`, which keeps the cookies it set. */
async function act(
  config: AuthConfig,
  jar: Jar,
  op: Parameters<typeof organizationAction>[1],
  input: Record<string, string>,
) {
  const fake = eventFor(config, jar)
  const answer = await organizationAction(fake.event as never, op, input)
  for (const [name, value] of fake.cookies) jar.cookies.set(name, value)
  return answer as unknown as { ok?: true; status?: number } & Partial<OrganizationActionFailure>
}

describe.each(["jwt", "database"] as const)("organization actions (%s sessions)", (strategy) => {
  it("create, invite, accept, change the role, remove: the removed member's next request is refused", async () => {
    const { config, mails } = await setup(strategy)
    const owner = await signIn(config, "owner")
    const member = await signIn(config, "member")
    expect(await act(config, owner, "create", { name: "Acme", slug: "acme" })).toMatchObject({
      ok: true,
    })
    const mine = (await loadOrganizations(eventFor(config, owner).event))!
    const organizationId = mine.active!.organization.id
    expect(mine.detail?.members.map((m) => m.role)).toEqual(["owner"])

    const invited = await act(config, owner, "invite", {
      organizationId,
      email: "member@example.com",
      role: "billing",
    })
    expect(invited.ok).toBe(true)
    const link = new URL(mails[0]!.url)
    // The invited user accepts on the core's page (a form post of their browser).
    const accepted = await Auth(
      req("/auth/organization/accept", {
        form: {
          invitationId: link.searchParams.get("invitationId")!,
          token: link.searchParams.get("token")!,
        },
        jar: member,
        origin: ORIGIN,
      }),
      config,
    )
    expect(accepted.status).toBe(200)
    member.take(accepted)
    const theirs = (await loadOrganizations(eventFor(config, member).event))!
    expect(theirs.active).toMatchObject({ organization: { id: organizationId }, role: "billing" })
    // A billing member sees no invitations.
    expect(theirs.detail?.invitations).toEqual([])
    const guarded = await requireOrganizationPermission(eventFor(config, member).event, {
      invoice: ["pay"],
    })
    expect(guarded.role).toBe("billing")
    expect(
      await hasOrganizationPermission(eventFor(config, member).event, { invoice: ["pay"] }),
    ).toBe(true)

    expect(
      await act(config, owner, "update-role", { organizationId, userId: "member", role: "member" }),
    ).toMatchObject({ ok: true })
    const demoted = await outcome(
      requireOrganizationPermission(eventFor(config, member).event, { invoice: ["pay"] }),
    )
    expect(demoted).toBeInstanceOf(ErrorResponse)
    expect((demoted as ErrorResponse).status).toBe(403)
    expect(
      await hasOrganizationPermission(eventFor(config, member).event, { invoice: ["pay"] }),
    ).toBe(false)

    expect(
      await act(config, owner, "remove-member", { organizationId, userId: "member" }),
    ).toMatchObject({ ok: true })
    const after = (await loadOrganizations(eventFor(config, member).event))!
    expect(after).toMatchObject({ organizations: [], active: null, detail: null })
    const removed = await outcome(requireOrganizationPermission(eventFor(config, member).event))
    expect((removed as ErrorResponse).status).toBe(403)
  })

  it("a refusal fails with the core's code and a message for the person", async () => {
    const { config } = await setup(strategy)
    const owner = await signIn(config, "owner")
    await act(config, owner, "create", { name: "Acme", slug: "acme" })
    const { active } = (await loadOrganizations(eventFor(config, owner).event))!
    const failed = await act(config, owner, "leave", { organizationId: active!.organization.id })
    expect(failed).toMatchObject({
      status: 409,
      error: { type: "OrganizationError", code: "last-owner" },
    })
    expect(failed.formErrors?.[0]).toContain("keeps an owner")
    const taken = await act(config, owner, "create", { name: "Other", slug: "ACME" })
    expect(taken.error?.code).toBe("slug-taken")
  })

  it("signed out: the loader is null, the guard sends to sign-in, actions fail with its URL", async () => {
    const { config } = await setup(strategy)
    const nobody = new Jar()
    expect(await loadOrganizations(eventFor(config, nobody).event)).toBeNull()
    const thrown = await outcome(requireOrganizationPermission(eventFor(config, nobody).event))
    expect(thrown).toEqual(new Redirect(302, "/auth/signin?callbackUrl=%2Fteam%2F"))
    const failed = await act(config, nobody, "create", { name: "x", slug: "xx" })
    expect(failed).toMatchObject({ status: 401, signInUrl: "/auth/signin?callbackUrl=%2Fteam%2F" })
  })
})
