/**
 * The statements of organizations, members and invitations (migration 0009). Parameterised
 * only, like `sql.ts`. Slugs are lower-cased by `lower()` here, the same function the table's
 * CHECK uses, so every writer stores them alike.
 */
const organizationColumns = `id, name, slug, "createdAt"`
const memberColumns = `"organizationId", "userId", role, "createdAt"`
const invitationColumns = `id, "organizationId", email, role, "inviterId", "expiresAt", "createdAt"`

/** Of the statements that keep a rule, `$n` names: see each method in `organizations.ts`. */
export const organizationSql = {
  // Every locked step runs at READ COMMITTED whatever the database's default: each statement
  // after the lock then sees what the transactions before it committed.
  readCommitted: "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",

  // The creator's row, locked until commit: one user's creates count one after the other.
  // NO KEY UPDATE: rows that only reference the user (sessions, accounts) are not held up.
  lockUser: `SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`,

  countCreated: `SELECT count(*)::int AS n FROM organizations WHERE "creatorId" = $1`,

  // The organization and its owner in one statement. A taken slug inserts nothing: the unique
  // key decides between concurrent creates (the later one waits for the earlier to commit).
  createOrganization: `WITH organization AS (
      INSERT INTO organizations (id, name, slug, "creatorId", "createdAt")
      VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, lower($3), $4, $5)
      ON CONFLICT (slug) DO NOTHING
      RETURNING ${organizationColumns}),
    owner AS (
      INSERT INTO members ("organizationId", "userId", role, "createdAt")
      SELECT id, $4, $6, "createdAt" FROM organization)
    SELECT ${organizationColumns} FROM organization`,

  getOrganization: `SELECT ${organizationColumns} FROM organizations WHERE id = $1`,

  getOrganizationBySlug: `SELECT ${organizationColumns} FROM organizations WHERE slug = lower($1)`,

  // NULL leaves a column (both are NOT NULL). A taken slug fails on the unique key (23505).
  updateOrganization: `UPDATE organizations SET name = COALESCE($2, name),
      slug = COALESCE(lower($3), slug)
    WHERE id = $1 RETURNING ${organizationColumns}`,

  // Members and invitations go by their foreign keys' ON DELETE CASCADE.
  deleteOrganization: `DELETE FROM organizations WHERE id = $1 RETURNING id`,

  listOrganizationsByUserId: `SELECT o.id, o.name, o.slug, o."createdAt", m.role
    FROM members m JOIN organizations o ON o.id = m."organizationId"
    WHERE m."userId" = $1 ORDER BY m."createdAt", o.id`,

  getMember: `SELECT ${memberColumns} FROM members WHERE "organizationId" = $1 AND "userId" = $2`,

  listMembers: `SELECT m."organizationId", m."userId", m.role, m."createdAt", u.name, u.email
    FROM members m JOIN users u ON u.id = m."userId"
    WHERE m."organizationId" = $1 ORDER BY m."createdAt", m."userId"`,

  // The organization's row, locked until commit: changes of its members go one at a time.
  lockOrganization: `SELECT id FROM organizations WHERE id = $1 FOR NO KEY UPDATE`,

  // The change happens only when it leaves an owner ($4: the owner role). Run under the
  // organization's lock, so the count is the committed truth and nobody changes it meanwhile.
  updateMemberRole: `UPDATE members SET role = $3
    WHERE "organizationId" = $1 AND "userId" = $2 AND (role <> $4 OR $3 = $4
      OR (SELECT count(*) FROM members WHERE "organizationId" = $1 AND role = $4) > 1)
    RETURNING role`,

  removeMember: `DELETE FROM members
    WHERE "organizationId" = $1 AND "userId" = $2 AND (role <> $3
      OR (SELECT count(*) FROM members WHERE "organizationId" = $1 AND role = $3) > 1)
    RETURNING role`,

  // Replaces the pending invitation of the address (the unique key): its old id finds nothing.
  createInvitation: `INSERT INTO invitations (${invitationColumns})
    VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7)
    ON CONFLICT ("organizationId", email) DO UPDATE SET id = EXCLUDED.id, role = EXCLUDED.role,
      "inviterId" = EXCLUDED."inviterId", "expiresAt" = EXCLUDED."expiresAt",
      "createdAt" = EXCLUDED."createdAt"
    RETURNING ${invitationColumns}`,

  getInvitation: `SELECT ${invitationColumns} FROM invitations WHERE id = $1`,

  listInvitations: `SELECT ${invitationColumns} FROM invitations WHERE "organizationId" = $1
    ORDER BY "createdAt", id`,

  deleteInvitation: `DELETE FROM invitations WHERE "organizationId" = $1 AND id = $2 RETURNING id`,

  // One statement: the DELETE takes the invitation (of concurrent accepts, one gets the row),
  // the INSERT makes the membership from it. An existing membership is kept: the no-op update
  // returns it, also when a concurrent transaction committed it after this one began.
  acceptInvitation: `WITH invitation AS (
      DELETE FROM invitations WHERE id = $1 AND "expiresAt" > $3
      RETURNING "organizationId", role)
    INSERT INTO members ("organizationId", "userId", role, "createdAt")
    SELECT "organizationId", $2, role, $3 FROM invitation
    ON CONFLICT ("organizationId", "userId") DO UPDATE SET role = members.role
    RETURNING ${memberColumns}`,
} as const
