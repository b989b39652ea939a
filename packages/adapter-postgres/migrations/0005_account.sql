-- Latchkey migration 0005: the account API. Additive only: existing rows and Auth.js code
-- reading these tables are unaffected.
--
-- sessions: a public id for "your devices" (never the token; the SERIAL id would reveal how
-- many sessions the site has), when the session was created and last renewed, a coarse user
-- agent, and the sign-in facts a recent sign-in is measured by. Existing rows get a public id
-- and leave the rest NULL (their sign-in time is unknown: never a recent sign-in).
-- authenticators: a name the user gives, when created (unknown for existing rows), last used.
-- session_records (JWT sessions): last re-issue and coarse user agent.

ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "publicId" UUID NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE sessions ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "lastSeenAt" TIMESTAMPTZ;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "userAgent" TEXT;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "authTime" TIMESTAMPTZ;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS amr TEXT[];
CREATE UNIQUE INDEX IF NOT EXISTS "sessions_publicId_key" ON sessions ("publicId");

ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS name TEXT;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE authenticators ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" TIMESTAMPTZ;

ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "lastSeenAt" TIMESTAMPTZ;
ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "userAgent" TEXT;
