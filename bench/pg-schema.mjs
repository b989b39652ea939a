// A throw-away schema on the PostgreSQL server at DATABASE_URL, for one bench suite: a small
// pool whose search_path is that schema, and a close() that drops it.
import pg from "pg"

export async function pgSchemaPool(label) {
  const schema = `bench_${label}_${process.pid}`
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${schema}`,
    max: 4,
  })
  const close = async () => {
    await pool.end()
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  }
  return { pool, close }
}
