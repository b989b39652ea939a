/**
 * Every statement the adapter runs. Parameterised only ($1…): no value is ever spliced into SQL
 * text. Table names are unqualified, so they resolve through the connection's `search_path`.
 * Each method is a single statement, hence atomic without an explicit transaction.
 */
import {
  accountColumns,
  authenticatorColumns,
  authenticatorColumnsFull,
  sessionColumns,
  userColumns,
  userColumnsOf,
} from "./records.js"

const insertSessionFull = `INSERT INTO sessions ("userId", expires, "sessionToken", "publicId",
      "createdAt", "lastSeenAt", "userAgent", "authTime", amr)
    VALUES ($1, $2, $3, COALESCE($4::uuid, gen_random_uuid()), COALESCE($5::timestamptz, now()),
      $6, $7, $8, $9::text[])
    RETURNING ${sessionColumns}`

/** The session read with the account API's columns, and `extra` columns before the user's. */
function sessionAndUser(extra: string) {
  return `SELECT s.expires AS "sessionExpires", s."publicId",
      s."createdAt" AS "sessionCreatedAt", s."lastSeenAt", s."userAgent", s."authTime", s.amr,
      ${extra}${userColumnsOf("u")}
    FROM sessions s JOIN users u ON u.id = s."userId"
    WHERE s."sessionToken" = $1`
}

export const sql = {
  createUser: `INSERT INTO users (name, email, "emailVerified", image)
    VALUES ($1, $2, $3, $4) RETURNING ${userColumns}`,

  getUser: `SELECT ${userColumns} FROM users WHERE id = $1`,

  // LIMIT 1: a database made from Auth.js's documented schema has no UNIQUE on email.
  getUserByEmail: `SELECT ${userColumns} FROM users WHERE email = $1 LIMIT 1`,

  // Users created before migration 0008 have no "createdAt" and are never listed.
  listUnprovenUsers: `SELECT ${userColumns} FROM users
    WHERE "emailVerified" IS NULL AND "createdAt" < $1
    ORDER BY "createdAt", id LIMIT $2`,

  getUserByAccount: `SELECT ${userColumnsOf("u")} FROM users u
    JOIN accounts a ON a."userId" = u.id
    WHERE a.provider = $1 AND a."providerAccountId" = $2 LIMIT 1`,

  // One statement updates the columns the patch names ($n = true) and leaves the others, so
  // concurrent partial updates of different fields do not overwrite each other.
  updateUser: `UPDATE users SET
      name = CASE WHEN $2::boolean THEN $3::text ELSE name END,
      email = CASE WHEN $4::boolean THEN $5::text ELSE email END,
      "emailVerified" = CASE WHEN $6::boolean THEN $7::timestamptz ELSE "emailVerified" END,
      image = CASE WHEN $8::boolean THEN $9::text ELSE image END
    WHERE id = $1 RETURNING ${userColumns}`,

  // Sessions and accounts are deleted explicitly: Auth.js's documented schema has no foreign
  // keys. Data-modifying CTEs always run to completion, so this is one atomic statement.
  // Authenticators go by their ON DELETE CASCADE (their table exists only with migration 0002).
  deleteUser: `WITH
      deleted_sessions AS (DELETE FROM sessions WHERE "userId" = $1),
      deleted_accounts AS (DELETE FROM accounts WHERE "userId" = $1)
    DELETE FROM users WHERE id = $1 RETURNING ${userColumns}`,

  linkAccount: `INSERT INTO accounts (${accountColumns})
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${accountColumns}`,

  unlinkAccount: `DELETE FROM accounts WHERE provider = $1 AND "providerAccountId" = $2
    RETURNING ${accountColumns}`,

  getAccount: `SELECT ${accountColumns} FROM accounts
    WHERE "providerAccountId" = $1 AND provider = $2 LIMIT 1`,

  // Provider token refresh: the user's account at a provider (accounts_userId_idx).
  getAccountByUserId: `SELECT ${accountColumns} FROM accounts
    WHERE "userId" = $1 AND provider = $2 ORDER BY id LIMIT 1`,

  // Like updateUser: only the token columns the patch names ($n = true) change, in one statement.
  updateAccount: `UPDATE accounts SET
      access_token = CASE WHEN $3::boolean THEN $4::text ELSE access_token END,
      refresh_token = CASE WHEN $5::boolean THEN $6::text ELSE refresh_token END,
      expires_at = CASE WHEN $7::boolean THEN $8::bigint ELSE expires_at END,
      id_token = CASE WHEN $9::boolean THEN $10::text ELSE id_token END,
      token_type = CASE WHEN $11::boolean THEN $12::text ELSE token_type END,
      scope = CASE WHEN $13::boolean THEN $14::text ELSE scope END
    WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${accountColumns}`,

  createSession: `INSERT INTO sessions ("userId", expires, "sessionToken")
    VALUES ($1, $2, $3) RETURNING "userId", expires`,

  // The session and its user in one round trip, found through the sessionToken index.
  getSessionAndUser: `SELECT s.expires AS "sessionExpires", ${userColumnsOf("u")}
    FROM sessions s JOIN users u ON u.id = s."userId"
    WHERE s."sessionToken" = $1`,

  // Read-modify-write in one statement: parallel updates of one session cannot interleave.
  updateSession: `UPDATE sessions SET
      expires = COALESCE($2::timestamptz, expires),
      "userId" = COALESCE($3::integer, "userId")
    WHERE "sessionToken" = $1 RETURNING "userId", expires`,

  deleteSession: `DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING "userId", expires`,

  // Revocation (migration 0004). Expired rows are purged on the way by the writes, so the
  // tables stay as small as the set of sessions that could still be presented.
  revokeSession: `WITH forgotten AS (DELETE FROM session_records WHERE sid = $1),
      purged AS (DELETE FROM revoked_sessions WHERE expires < now() AND sid <> $1)
    INSERT INTO revoked_sessions (sid, expires) VALUES ($1, $2)
    ON CONFLICT (sid) DO UPDATE SET expires = GREATEST(revoked_sessions.expires, EXCLUDED.expires)`,

  // One round trip for a strict read: is the sid revoked, and what is the user's version.
  getSessionRevocation: `SELECT
      EXISTS (SELECT 1 FROM revoked_sessions WHERE sid = $1::text AND expires > now()) AS revoked,
      COALESCE((SELECT version FROM user_session_versions WHERE "userId" = $2::text), 0)
        AS version`,

  bumpUserSessionVersion: `WITH forgotten AS (DELETE FROM session_records WHERE "userId" = $1)
    INSERT INTO user_session_versions ("userId", version) VALUES ($1, 1)
    ON CONFLICT ("userId") DO UPDATE SET version = user_session_versions.version + 1
    RETURNING version`,

  deleteUserSessions: `DELETE FROM sessions WHERE "userId" = $1`,

  // Bounded per user as it is written: expired records go, and so do all but the newest $5 of
  // the others (one account signed in again and again must not grow the table).
  createSessionRecord: `WITH purged AS (
      DELETE FROM session_records WHERE "userId" = $2 AND sid <> $1 AND (expires < now()
        OR sid IN (SELECT sid FROM session_records WHERE "userId" = $2 AND sid <> $1
          ORDER BY "authTime" DESC, sid DESC OFFSET $5::integer)))
    INSERT INTO session_records (sid, "userId", "authTime", expires) VALUES ($1, $2, $3, $4)
    ON CONFLICT (sid) DO UPDATE SET expires = EXCLUDED.expires`,

  listSessionRecords: `SELECT sid, "userId", "authTime", expires FROM session_records
    WHERE "userId" = $1 AND expires > now() ORDER BY "authTime", sid`,

  // Account API (migration 0005). Used only when the adapter offers the account methods, so
  // a database without the columns keeps working with the statements above.
  createSessionFull: insertSessionFull,

  // Bounded per user as it is written (a script with one valid password must not grow the
  // user's rows): the user's expired rows go, and all but the newest $10 of the live others,
  // newest as listSessionsByUserId orders them. The DELETE sees the table as it was before the
  // INSERT, so the new row is never among them; sessions_userId_idx finds the user's rows.
  // k sign-ins of one user at the same instant see the same snapshot and may leave k - 1 rows
  // over the bound, until the next sign-in trims them.
  createSessionFullBounded: `WITH purged AS (
      DELETE FROM sessions WHERE "userId" = $1 AND (expires < now()
        OR id IN (SELECT id FROM sessions WHERE "userId" = $1 AND expires >= now()
          ORDER BY "createdAt" DESC NULLS LAST, id DESC OFFSET $10::integer)))
    ${insertSessionFull}`,

  getSessionAndUserFull: sessionAndUser(""),

  updateSessionFull: `UPDATE sessions SET
      expires = COALESCE($2::timestamptz, expires),
      "userId" = COALESCE($3::integer, "userId"),
      "lastSeenAt" = COALESCE($4::timestamptz, "lastSeenAt")
    WHERE "sessionToken" = $1 RETURNING ${sessionColumns}`,

  // With organizations (migration 0009): the session's active organization too. The update
  // sets it when $5 is true ($6 NULL clears it), like updateUser's patch columns.
  getSessionAndUserOrganizations: sessionAndUser(`s."activeOrganizationId",`),

  updateSessionOrganizations: `UPDATE sessions SET
      expires = COALESCE($2::timestamptz, expires),
      "userId" = COALESCE($3::integer, "userId"),
      "lastSeenAt" = COALESCE($4::timestamptz, "lastSeenAt"),
      "activeOrganizationId" = CASE WHEN $5::boolean THEN $6::uuid
        ELSE "activeOrganizationId" END
    WHERE "sessionToken" = $1 RETURNING ${sessionColumns}, "activeOrganizationId"`,

  listSessionsByUserId: `SELECT ${sessionColumns} FROM sessions
    WHERE "userId" = $1 AND expires > now() ORDER BY "createdAt" NULLS FIRST, id`,

  // The user id in the WHERE clause: another user's session id matches nothing.
  deleteSessionById: `DELETE FROM sessions WHERE "userId" = $1 AND "publicId" = $2::uuid
    RETURNING id`,

  listAccountsByUserId: `SELECT ${accountColumns} FROM accounts WHERE "userId" = $1
    ORDER BY provider, "providerAccountId"`,

  deleteAuthenticator: `DELETE FROM authenticators WHERE "userId" = $1 AND "credentialID" = $2
    RETURNING "credentialID"`,

  renameAuthenticator: `UPDATE authenticators SET name = $3
    WHERE "userId" = $1 AND "credentialID" = $2 RETURNING "credentialID"`,

  createAuthenticatorFull: `INSERT INTO authenticators (${authenticatorColumns}, name, "createdAt")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE($10::timestamptz, now()))
    RETURNING ${authenticatorColumnsFull}`,

  getAuthenticatorFull: `SELECT ${authenticatorColumnsFull} FROM authenticators
    WHERE "credentialID" = $1`,

  listAuthenticatorsByUserIdFull: `SELECT ${authenticatorColumnsFull} FROM authenticators
    WHERE "userId" = $1 ORDER BY "createdAt" NULLS FIRST, "credentialID"`,

  // A sign-in with the passkey: the counter and when it was last used, in one statement.
  updateAuthenticatorCounterFull: `UPDATE authenticators SET counter = $2, "lastUsedAt" = now()
    WHERE "credentialID" = $1 RETURNING ${authenticatorColumnsFull}`,

  createSessionRecordFull: `WITH purged AS (
      DELETE FROM session_records WHERE "userId" = $2 AND sid <> $1 AND (expires < now()
        OR sid IN (SELECT sid FROM session_records WHERE "userId" = $2 AND sid <> $1
          ORDER BY "authTime" DESC, sid DESC OFFSET $7::integer)))
    INSERT INTO session_records (sid, "userId", "authTime", expires, "lastSeenAt", "userAgent")
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (sid) DO UPDATE SET expires = EXCLUDED.expires,
      "lastSeenAt" = COALESCE(EXCLUDED."lastSeenAt", session_records."lastSeenAt"),
      "userAgent" = COALESCE(EXCLUDED."userAgent", session_records."userAgent")`,

  listSessionRecordsFull: `SELECT sid, "userId", "authTime", expires, "lastSeenAt", "userAgent"
    FROM session_records WHERE "userId" = $1 AND expires > now() ORDER BY "authTime", sid`,
  // Two-factor sign-in (migration 0006). The secret arrives sealed, codes arrive hashed.
  getTwoFactor: `SELECT "userId", secret, "enabledAt" FROM two_factor WHERE "userId" = $1`,

  setTwoFactor: `INSERT INTO two_factor ("userId", secret, "enabledAt") VALUES ($1, $2, $3)
    ON CONFLICT ("userId") DO UPDATE SET secret = EXCLUDED.secret, "enabledAt" = EXCLUDED."enabledAt"`,

  deleteTwoFactor: `WITH codes AS (DELETE FROM two_factor_recovery_codes WHERE "userId" = $1)
    DELETE FROM two_factor WHERE "userId" = $1`,

  deleteRecoveryCodes: `DELETE FROM two_factor_recovery_codes WHERE "userId" = $1`,

  insertRecoveryCodes: `INSERT INTO two_factor_recovery_codes ("userId", "codeHash")
    SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,

  // DELETE … RETURNING: of two concurrent uses of one code, only one gets the row.
  useRecoveryCode: `DELETE FROM two_factor_recovery_codes WHERE "userId" = $1 AND "codeHash" = $2
    RETURNING 1 AS used`,

  countRecoveryCodes: `SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE "userId" = $1`,

  // Password accounts (migration 0007). The hash arrives made by the core.
  getPasswordHash: `SELECT hash FROM password_hashes WHERE "userId" = $1`,

  setPasswordHash: `INSERT INTO password_hashes ("userId", hash) VALUES ($1, $2)
    ON CONFLICT ("userId") DO UPDATE SET hash = EXCLUDED.hash, "updatedAt" = now()`,

  deletePasswordHash: `DELETE FROM password_hashes WHERE "userId" = $1 RETURNING 1 AS deleted`,

  createVerificationToken: `INSERT INTO verification_token (identifier, expires, token)
    VALUES ($1, $2, $3) RETURNING identifier, expires, token`,

  // Atomic read-and-delete: of two concurrent clicks on one link, exactly one gets the row.
  useVerificationToken: `DELETE FROM verification_token WHERE identifier = $1 AND token = $2
    RETURNING identifier, expires, token`,

  createAuthenticator: `INSERT INTO authenticators (${authenticatorColumns})
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${authenticatorColumns}`,

  getAuthenticator: `SELECT ${authenticatorColumns} FROM authenticators
    WHERE "credentialID" = $1`,

  listAuthenticatorsByUserId: `SELECT ${authenticatorColumns} FROM authenticators
    WHERE "userId" = $1 ORDER BY "credentialID"`,

  updateAuthenticatorCounter: `UPDATE authenticators SET counter = $2
    WHERE "credentialID" = $1 RETURNING ${authenticatorColumns}`,
} as const
