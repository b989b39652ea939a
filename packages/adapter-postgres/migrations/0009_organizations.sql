-- Latchkey migration 0009: organizations (issue 45; docs/design/organizations.md). Auth.js has
-- none. Additive: three new tables and one nullable column of sessions.
--
-- organizations: "slug" is stored lower-cased (the CHECK holds every writer to it), so its
--   UNIQUE makes "ACME-x" and "acme-x" one slug. "creatorId" counts a user's creations for the
--   per-user limit; the organization outlives its creator (SET NULL). Ids are UUIDs: a SERIAL
--   would tell how many organizations the site has.
-- members: one row per (organization, user), the primary key, whatever requests race. Members
--   go with their organization and with their user.
-- invitations: at most one pending per (organization, address): a re-invite replaces the row.
--   Invitations go with their organization and with their inviter.
-- sessions."activeOrganizationId": the organization a database session acts in. No foreign
--   key: the feature re-checks the membership on every use, and setting it must not fail when
--   the organization is deleted meanwhile.

CREATE TABLE IF NOT EXISTS organizations
(
  id UUID NOT NULL DEFAULT gen_random_uuid(),
  name TEXT NOT NULL,
  slug TEXT NOT NULL CHECK (slug = lower(slug)),
  "creatorId" INTEGER REFERENCES users ON DELETE SET NULL,
  "createdAt" TIMESTAMPTZ NOT NULL DEFAULT now(),

  PRIMARY KEY (id),
  UNIQUE (slug)
);

CREATE INDEX IF NOT EXISTS "organizations_creatorId_idx" ON organizations ("creatorId");

CREATE TABLE IF NOT EXISTS members
(
  "organizationId" UUID NOT NULL REFERENCES organizations ON DELETE CASCADE,
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  role TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ NOT NULL DEFAULT now(),

  PRIMARY KEY ("organizationId", "userId")
);

CREATE INDEX IF NOT EXISTS "members_userId_idx" ON members ("userId");

CREATE TABLE IF NOT EXISTS invitations
(
  id UUID NOT NULL DEFAULT gen_random_uuid(),
  "organizationId" UUID NOT NULL REFERENCES organizations ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  "inviterId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  "expiresAt" TIMESTAMPTZ NOT NULL,
  "createdAt" TIMESTAMPTZ NOT NULL DEFAULT now(),

  PRIMARY KEY (id),
  UNIQUE ("organizationId", email)
);

CREATE INDEX IF NOT EXISTS "invitations_inviterId_idx" ON invitations ("inviterId");

ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "activeOrganizationId" UUID;
