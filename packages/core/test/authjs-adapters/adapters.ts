/**
 * Official Auth.js adapters, constructed as their documentation does, on in-process storage:
 * `@auth/drizzle-adapter` with drizzle-orm on PGlite (its default Postgres tables, created with
 * the DDL its documentation gives) and `@auth/unstorage-adapter` on unstorage's memory driver.
 * Nothing is wrapped or cast: the point is that they fit Latchkey's `Adapter` as they are.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { PGlite } from "@electric-sql/pglite"
import type { Adapter } from "@latchkey/core/adapters"
import { drizzle } from "drizzle-orm/pglite"
import { createStorage } from "unstorage"
import memoryDriver from "unstorage/drivers/memory"

export interface AuthJsAdapter {
  name: string
  adapter: Adapter
  close(): Promise<void>
}

/** The tables of `@auth/drizzle-adapter`'s default Postgres schema (`lib/pg.ts`). */
const DRIZZLE_PG_TABLES = `
CREATE TABLE "user" (
  "id" text PRIMARY KEY, "name" text, "email" text UNIQUE, "emailVerified" timestamp, "image" text
);
CREATE TABLE "account" (
  "userId" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "type" text NOT NULL, "provider" text NOT NULL, "providerAccountId" text NOT NULL,
  "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text,
  "scope" text, "id_token" text, "session_state" text,
  PRIMARY KEY ("provider", "providerAccountId")
);
CREATE TABLE "session" (
  "sessionToken" text PRIMARY KEY,
  "userId" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "expires" timestamp NOT NULL
);
CREATE TABLE "verificationToken" (
  "identifier" text NOT NULL, "token" text NOT NULL, "expires" timestamp NOT NULL,
  PRIMARY KEY ("identifier", "token")
);
CREATE TABLE "authenticator" (
  "credentialID" text NOT NULL UNIQUE,
  "userId" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "providerAccountId" text NOT NULL, "credentialPublicKey" text NOT NULL,
  "counter" integer NOT NULL, "credentialDeviceType" text NOT NULL,
  "credentialBackedUp" boolean NOT NULL, "transports" text,
  PRIMARY KEY ("userId", "credentialID")
);`

export async function drizzleOnPglite(): Promise<AuthJsAdapter> {
  const client = new PGlite()
  await client.exec(DRIZZLE_PG_TABLES)
  return {
    name: "@auth/drizzle-adapter (drizzle-orm on PGlite)",
    adapter: DrizzleAdapter(drizzle(client)),
    close: () => client.close(),
  }
}

export async function unstorageInMemory(): Promise<AuthJsAdapter> {
  const storage = createStorage({ driver: memoryDriver() })
  return {
    name: "@auth/unstorage-adapter (memory driver)",
    adapter: UnstorageAdapter(storage),
    close: () => storage.dispose(),
  }
}
