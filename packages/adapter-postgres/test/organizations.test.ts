/**
 * Organizations on PostgreSQL beyond the shared contract (PGlite always; the server at
 * DATABASE_URL when set): what migration 0009 holds every writer to (lower-cased slugs, the
 * cascades of its foreign keys), ids of another shape finding nothing, and a database migrated
 * before 0009 working with `organizations: false`.
 */
import { organizationAdapterMethods } from "@latchkey/core/adapters"
import { AdapterError } from "@latchkey/core/errors"
import { afterEach, describe, expect, it } from "vitest"
import { runScript } from "../src/client.js"
import { loadMigrations, migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

const inAnHour = () => new Date(Date.now() + 3_600_000)

for (const backend of backends) {
  describe(`organizations on PostgresAdapter (${backend.name})`, () => {
    let db: TestDatabase | undefined
    afterEach(async () => await db?.close())

    async function migrated() {
      db = await backend.create()
      await migrate(db.client)
      const adapter = PostgresAdapter(db.client)
      const user = await adapter.createUser!({
        id: "",
        email: `${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
      const org = await adapter.createOrganization!(
        { id: crypto.randomUUID(), name: "Acme", slug: "acme-x", createdAt: new Date() },
        user.id,
        { maxPerUser: 5 },
      )
      if (typeof org === "string") throw new Error(org)
      return { db, adapter, user, org }
    }

    it("the table keeps slugs lower-cased, whoever writes them", async () => {
      const { db } = await migrated()
      const error = await db
        .sql(`INSERT INTO organizations (name, slug) VALUES ('Other', 'Other-X')`)
        .catch((e: unknown) => e)
      expect((error as { code?: string }).code).toBe("23514")
      expect(await db.sql("SELECT slug FROM organizations")).toEqual([{ slug: "acme-x" }])
    })

    it("deleting a user deletes their memberships and sent invitations; the organization stays", async () => {
      const { db, adapter, user, org } = await migrated()
      await adapter.createInvitation!({
        id: crypto.randomUUID(),
        organizationId: org.id,
        email: "someone@example.com",
        role: "member",
        inviterId: user.id,
        expiresAt: inAnHour(),
        createdAt: new Date(),
      })
      await adapter.deleteUser!(user.id)
      const count = async (table: string) =>
        (await db.sql(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n
      expect(await count("members")).toBe(0)
      expect(await count("invitations")).toBe(0)
      expect(await db.sql(`SELECT "creatorId" FROM organizations`)).toEqual([{ creatorId: null }])
    })

    it("an id that is no UUID or no integer finds nothing, and is never cast", async () => {
      const { adapter, user, org } = await migrated()
      for (const id of ["1", "acme-x", "00000000-0000-0000-0000-00000000000g"]) {
        expect(await adapter.getOrganization!(id)).toBeNull()
        expect(await adapter.getMember!(id, user.id)).toBeNull()
        expect(await adapter.removeMember!(id, user.id)).toBe("not-found")
        expect(await adapter.acceptInvitation!(id, user.id, new Date())).toBeNull()
      }
      expect(await adapter.getMember!(org.id, "not-a-user")).toBeNull()
      expect(await adapter.listOrganizationsByUserId!("not-a-user")).toEqual([])
      const organization = { id: "", name: "x", slug: "xy", createdAt: new Date() }
      const refused = await Promise.resolve(
        adapter.createOrganization!(organization, "nobody", { maxPerUser: 5 }),
      ).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(AdapterError)
    })

    it("a session's active organization: only a UUID is stored", async () => {
      const { adapter, user, org } = await migrated()
      const sessionToken = crypto.randomUUID()
      await adapter.createSession!({ sessionToken, userId: user.id, expires: inAnHour() })
      await adapter.updateSession!({ sessionToken, activeOrganizationId: org.id })
      const found = await adapter.getSessionAndUser!(sessionToken)
      expect(found?.session.activeOrganizationId).toBe(org.id)
      const error = await Promise.resolve(
        adapter.updateSession!({ sessionToken, activeOrganizationId: "acme-x" }),
      ).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AdapterError)
      expect((await adapter.getSessionAndUser!(sessionToken))?.session.activeOrganizationId).toBe(
        org.id,
      )
    })

    it("a database migrated before 0009 works with organizations: false, without the methods", async () => {
      db = await backend.create()
      const before = (await loadMigrations()).filter((m) => m.version < 9)
      for (const migration of before) await runScript(db.client, migration.sql)
      const adapter = PostgresAdapter(db.client, { organizations: false })
      for (const name of organizationAdapterMethods) expect(adapter[name]).toBeUndefined()
      const user = await adapter.createUser!({
        id: "",
        email: `${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
      const sessionToken = crypto.randomUUID()
      await adapter.createSession!({ sessionToken, userId: user.id, expires: inAnHour() })
      const later = inAnHour()
      await adapter.updateSession!({ sessionToken, expires: later })
      const found = await adapter.getSessionAndUser!(sessionToken)
      expect(found?.session.expires.getTime()).toBe(later.getTime())
      expect(found?.session).not.toHaveProperty("activeOrganizationId")
    })
  })
}
