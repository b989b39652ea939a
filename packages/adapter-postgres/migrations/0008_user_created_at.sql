-- Latchkey migration 0008: when each user row was created, for the operator clean-up of
-- accounts whose address was never proved (listUnprovenUsers; `npx latchkey users:unproven`).
-- Additive only.
--
-- Existing rows keep NULL (their creation time is unknown), so a clean-up by age never lists
-- them: an Auth.js database holds every OAuth user with an empty "emailVerified", and those
-- are real accounts, not squatters. New rows get now().
-- Numbered 0008, not 0007: 0007 is left to the password accounts' migration built alongside.

ALTER TABLE users ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE users ALTER COLUMN "createdAt" SET DEFAULT now();
CREATE INDEX IF NOT EXISTS "users_unproven_createdAt_idx" ON users ("createdAt")
  WHERE "emailVerified" IS NULL;
