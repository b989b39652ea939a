import { runAdapterContract } from "@latchkey/adapter-test"
import { migrate, PostgresAdapter } from "../src/index.js"
import { authJsSchema, backends, runSql, type TestDatabase } from "./helpers.js"

for (const backend of backends) {
  // Latchkey's own schema, created by migrate(), session tokens hashed (the defaults).
  let db: TestDatabase | undefined
  runAdapterContract({
    name: `postgres on ${backend.name}`,
    async adapter() {
      db = await backend.create()
      await migrate(db.client)
      return PostgresAdapter(db.client)
    },
    teardown: async () => await db?.close(),
    capabilities: { authenticators: true },
  })

  // An untouched @auth/pg-adapter database: plaintext tokens, no constraints, VARCHAR(255)
  // names, no authenticators table. The contract must hold there too.
  let legacy: TestDatabase | undefined
  runAdapterContract({
    name: `postgres on ${backend.name}, Auth.js schema as documented`,
    async adapter() {
      legacy = await backend.create()
      await runSql(legacy, authJsSchema)
      return PostgresAdapter(legacy.client, {
        hashSessionTokens: false,
        authenticators: false,
        revocation: false,
        account: false,
        password: false,
      })
    },
    teardown: async () => await legacy?.close(),
    capabilities: { authenticators: false, maxStringLength: 255, uniqueAccounts: false },
  })
}
