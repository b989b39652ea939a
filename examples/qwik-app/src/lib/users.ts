/**
 * The demo's users: rows of the adapter's `users` table, with their scrypt password hash in
 * `demo_credentials`. One account always exists: `demo@example.com` / `latchkey-demo`.
 */

import { adapter, database } from "./db"
import { DEMO_EMAIL, DEMO_PASSWORD } from "./demo-account"
import { decoyHash, hashPassword, verifyPassword } from "./passwords"

export interface DemoUser {
  id: string
  email: string
  name: string
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

let seeded: Promise<unknown> | undefined
function seed(): Promise<unknown> {
  seeded ??= (async () => {
    if (await adapter.getUserByEmail?.(DEMO_EMAIL)) return
    await insertUser({ email: DEMO_EMAIL, name: "Demo User", password: DEMO_PASSWORD })
  })().catch((error: unknown) => {
    // Not kept: the next caller tries again instead of failing on a stale error forever.
    seeded = undefined
    throw error
  })
  return seeded
}

async function insertUser(input: {
  email: string
  name: string
  password: string
}): Promise<DemoUser | null> {
  const passwordHash = await hashPassword(input.password)
  const db = await database()
  try {
    // One transaction: a user row never exists without its password.
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        "INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id",
        [input.name, input.email],
      )
      const id = rows[0]!.id
      await tx.query(`INSERT INTO demo_credentials ("userId", password_hash) VALUES ($1, $2)`, [
        id,
        passwordHash,
      ])
      return { id: String(id), email: input.email, name: input.name }
    })
  } catch (error) {
    // 23505: unique_violation, the address is taken (maybe by a concurrent sign-up).
    if ((error as { code?: string }).code === "23505") return null
    throw error
  }
}

/**
 * Open the database, migrate it and seed the demo account, so the first request is fast. A
 * failure is retried a few times (with a log line) before start-up gives up: on a busy machine
 * the first open of the database can be slow or fail once.
 */
export async function prepareUserStore(attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return void (await seed())
    } catch (error) {
      if (attempt >= attempts) throw error
      const reason = error instanceof Error ? error.message : String(error)
      console.warn(`[latchkey-demo] preparing the database failed (${reason}); retrying`)
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
    }
  }
}

export type CreateUserResult = { ok: true; user: DemoUser } | { ok: false; reason: "taken" }

export async function createUser(input: {
  email: string
  name: string
  password: string
}): Promise<CreateUserResult> {
  await seed()
  const user = await insertUser({
    ...input,
    email: normaliseEmail(input.email),
    name: input.name.trim(),
  })
  return user ? { ok: true, user } : { ok: false, reason: "taken" }
}

/** The user with these credentials, or `null`. Unknown emails cost the same as wrong passwords. */
export async function verifyCredentials(
  email: unknown,
  password: unknown,
): Promise<DemoUser | null> {
  if (typeof email !== "string" || typeof password !== "string" || password.length > 1024)
    return null
  await seed()
  const db = await database()
  const { rows } = await db.query<{
    id: number
    email: string
    name: string | null
    password_hash: string
  }>(
    `SELECT u.id, u.email, u.name, c.password_hash
       FROM users u JOIN demo_credentials c ON c."userId" = u.id
      WHERE u.email = $1`,
    [normaliseEmail(email)],
  )
  const row = rows[0]
  const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()))
  return row && ok ? { id: String(row.id), email: row.email, name: row.name ?? "" } : null
}

/** The nickname a user chose on the account page, if any. */
export async function getNickname(userId: string): Promise<string | null> {
  const db = await database()
  const { rows } = await db.query<{ nickname: string }>(
    `SELECT nickname FROM demo_profiles WHERE "userId" = $1`,
    [Number(userId)],
  )
  return rows[0]?.nickname ?? null
}

export async function setNickname(userId: string, nickname: string): Promise<void> {
  const db = await database()
  await db.query(
    `INSERT INTO demo_profiles ("userId", nickname) VALUES ($1, $2)
     ON CONFLICT ("userId") DO UPDATE SET nickname = EXCLUDED.nickname`,
    [Number(userId), nickname],
  )
}

/**
 * Whether the user has a password here: the account API counts it as a way to sign in, so a
 * user with a password may remove their last passkey or linked account.
 */
export async function hasPassword(userId: string): Promise<boolean> {
  const id = Number(userId)
  if (!Number.isSafeInteger(id)) return false
  const db = await database()
  const { rows } = await db.query(`SELECT 1 FROM demo_credentials WHERE "userId" = $1`, [id])
  return rows.length > 0
}
