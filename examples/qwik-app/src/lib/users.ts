/**
 * The demo's users live in the adapter's tables; their passwords are the `Password` provider's
 * (hashed by it, stored through the adapter). One account always exists, with a proven address:
 * `demo@example.com` / `latchkey-demo`.
 */
import { passwordProvider } from "~/auth"
import { adapter } from "./db"
import { DEMO_EMAIL, DEMO_PASSWORD } from "./demo-account"

let seeded: Promise<unknown> | undefined
function seed(): Promise<unknown> {
  seeded ??= seedDemoAccount().catch((error: unknown) => {
    // Not kept: the next caller tries again instead of failing on a stale error forever.
    seeded = undefined
    throw error
  })
  return seeded
}

async function seedDemoAccount(): Promise<void> {
  const { getUserByEmail, createUser, getPasswordHash, setPasswordHash } = adapter
  if (!getUserByEmail || !createUser || !getPasswordHash || !setPasswordHash) {
    throw new Error("The demo's adapter lacks the user or password methods")
  }
  const user =
    (await getUserByEmail(DEMO_EMAIL)) ??
    (await createUser({
      id: "",
      email: DEMO_EMAIL,
      name: "Demo User",
      emailVerified: new Date(),
    }))
  // A database from before the password provider has the user but not its hash.
  if ((await getPasswordHash(user.id)) !== null) return
  const hash = await passwordProvider.passwordAccount.hasher.hash(DEMO_PASSWORD)
  await setPasswordHash(user.id, hash)
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
