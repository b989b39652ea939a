/** The nickname shown on the account page: the demo's custom session field, in its own table. */
import { database } from "./db"

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
