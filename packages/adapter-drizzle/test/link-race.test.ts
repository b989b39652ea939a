/**
 * Twenty simultaneous openings of one email sign-in link by a returning user, through `Auth()`
 * on as many app instances sharing the database: exactly one gets a session, on every engine —
 * MySQL included, where `@auth/drizzle-adapter`'s `useVerificationToken` (a SELECT, then a
 * DELETE) lets several in.
 */

import { DrizzleAdapter as AuthJsDrizzleAdapter } from "@auth/drizzle-adapter"
import { Auth, type AuthConfig } from "@latchkey/core"
import { type Adapter, withAdapterFeature } from "@latchkey/core/adapters"
import type { SendVerificationRequestParams } from "@latchkey/core/providers/email"
import Nodemailer from "@latchkey/core/providers/nodemailer"
import { MemoryStore } from "@latchkey/core/store"
import { afterAll, describe, expect, it } from "vitest"
import { defineTables as authJsMysqlTables } from "../../../node_modules/@auth/drizzle-adapter/lib/mysql.js"
import { DrizzleAdapter } from "../src/index.js"
import {
  engines,
  migrateTo,
  migrationFor,
  mysqlEngine,
  mysqlUrl,
  schemas,
  type TestDatabase,
} from "./engines.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const CLICKS = 20

/** A browser's cookie jar, as a `cookie` header. */
function remember(res: Response, jar: Map<string, string>): string {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ""] = line.split(";")
    const i = pair.indexOf("=")
    jar.set(pair.slice(0, i), pair.slice(i + 1))
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
}

/**
 * Signs `email` up through a first link (so the user exists, as for any returning user), then
 * requests a second link, opens it, and posts its confirmation {@link CLICKS} times at once: the
 * answers to those.
 */
async function raceOneLink(config: AuthConfig, sent: SendVerificationRequestParams[]) {
  const email = `race-${crypto.randomUUID()}@example.com`
  const [first] = await openLink(config, sent, email, 1)
  expect(signedIn([first!])).toBe(1)
  return await openLink(config, sent, email, CLICKS)
}

async function openLink(
  config: AuthConfig,
  sent: SendVerificationRequestParams[],
  email: string,
  clicks: number,
): Promise<Response[]> {
  const jar = new Map<string, string>()
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  let cookie = remember(csrf, jar)
  const post = (path: string, fields: Record<string, string>) =>
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: ORIGIN },
      body: new URLSearchParams(fields).toString(),
    })
  const before = sent.length
  const asked = await Auth(post("/auth/signin/email", { email, csrfToken }), config)
  expect(asked.status).toBe(303)
  expect(sent).toHaveLength(before + 1)
  cookie = remember(asked, jar)
  const page = await Auth(new Request(sent.at(-1)!.url, { headers: { cookie } }), config)
  cookie = remember(page, jar)
  const fields = Object.fromEntries(
    [...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")],
    ),
  )
  // Each click reaches another instance of the app (its own memory store): the core's second
  // line, a store that remembers used links, does not see the others, and only the database's
  // single use is left to stop them.
  return await Promise.all(
    Array.from({ length: clicks }, () =>
      Auth(post("/auth/callback/email", fields), { ...config, store: new MemoryStore() }),
    ),
  )
}

const signedIn = (answers: Response[]) =>
  answers.filter((res) =>
    res.headers
      .getSetCookie()
      .some(
        (c) => c.startsWith("authjs.session-token=") && !c.startsWith("authjs.session-token=;"),
      ),
  ).length

function configFor(adapter: Adapter, strategy: "database" | "jwt") {
  const sent: SendVerificationRequestParams[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    session: { strategy },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [Nodemailer({ id: "email", sendVerificationRequest: (p) => void sent.push(p) })],
  }
  return { config, sent }
}

for (const engine of engines) {
  describe(`one email link opened ${CLICKS} times at once: ${engine.name}`, () => {
    const databases: TestDatabase[] = []
    afterAll(async () => await Promise.all(databases.map((d) => d.close())))

    it("exactly one opening gets a session (database and JWT sessions)", async () => {
      const database = await engine.create()
      databases.push(database)
      const adapter = DrizzleAdapter(database.db, { schema: schemas[engine.dialect] })
      for (const strategy of ["database", "jwt"] as const) {
        const { config, sent } = configFor(adapter, strategy)
        const answers = await raceOneLink(config, sent)
        expect(signedIn(answers)).toBe(1)
        const refused = answers.filter((r) =>
          r.headers.get("location")?.includes("error=Verification"),
        )
        expect(refused).toHaveLength(CLICKS - 1)
      }
    })
  })
}

describe.skipIf(!mysqlUrl)("the same race on MySQL with @auth/drizzle-adapter", () => {
  it("lets more than one opening in (a SELECT, then a DELETE): the race above is real", async () => {
    const database = await mysqlEngine.create({ tables: false })
    try {
      const tables = authJsMysqlTables()
      await migrateTo(database, await migrationFor("mysql", tables))
      // As an app calling Auth() itself hands it an Auth.js adapter.
      const adapter = withAdapterFeature(AuthJsDrizzleAdapter(database.db as never) as Adapter)
      const { config, sent } = configFor(adapter, "jwt")
      const answers = await raceOneLink(config, sent)
      expect(signedIn(answers)).toBeGreaterThan(1)
    } finally {
      await database.close()
    }
  })
})
