-- Latchkey migration 0004: session revocation through the database (no Redis needed).
-- Auth.js has no such tables. "userId" is TEXT without a foreign key: JWT sessions of a
-- credentials provider may belong to users the database does not hold.
--
-- revoked_sessions: ended session ids (`sid` claim), kept until the token could have expired.
-- user_session_versions: "sign out everywhere" raises a user's version; older sessions end.
-- session_records: one row per JWT session, for a "your devices" list. Holds no token.

CREATE TABLE IF NOT EXISTS revoked_sessions
(
  sid TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,

  PRIMARY KEY (sid)
);

CREATE INDEX IF NOT EXISTS revoked_sessions_expires_idx ON revoked_sessions (expires);

CREATE TABLE IF NOT EXISTS user_session_versions
(
  "userId" TEXT NOT NULL,
  version BIGINT NOT NULL,

  PRIMARY KEY ("userId")
);

CREATE TABLE IF NOT EXISTS session_records
(
  sid TEXT NOT NULL,
  "userId" TEXT NOT NULL,
  "authTime" TIMESTAMPTZ NOT NULL,
  expires TIMESTAMPTZ NOT NULL,

  PRIMARY KEY (sid)
);

CREATE INDEX IF NOT EXISTS "session_records_userId_idx" ON session_records ("userId");
