/**
 * The schema file an app keeps Latchkey's tables in, for the features its config enables:
 * `npx latchkey generate --drizzle <dialect>` writes it, and `npx latchkey init` calls
 * {@link schemaFile} when it finds Drizzle in the app. The file re-exports the tables of
 * `@latchkey/adapter-drizzle/<dialect>`: drizzle-kit reads them from it and writes the app's
 * migrations, and a Latchkey upgrade that adds a column reaches the app as drizzle-kit's next
 * migration. Pure functions (no file system): the CLI writes the file.
 *
 * @module @latchkey/adapter-drizzle/generate
 */

export type SchemaDialect = "pg" | "mysql" | "sqlite"

/** The optional groups of tables, each for one feature of the config. */
export type SchemaFeature = "passkeys" | "password" | "two-factor" | "organizations" | "revocation"

export const dialects: readonly SchemaDialect[] = ["pg", "mysql", "sqlite"]
export const features: readonly SchemaFeature[] = [
  "passkeys",
  "password",
  "two-factor",
  "organizations",
  "revocation",
]

/** The tables every app has (Auth.js's four), then each feature's. */
const baseTables = ["users", "accounts", "sessions", "verificationTokens"] as const
const featureTables: Record<SchemaFeature, readonly string[]> = {
  passkeys: ["authenticators"],
  password: ["passwordHashes"],
  "two-factor": ["twoFactors", "twoFactorRecoveryCodes"],
  organizations: ["organizations", "members", "invitations"],
  // Revocation and the "your devices" list of JWT sessions, without a shared store.
  revocation: ["revokedSessions", "userSessionVersions", "sessionRecords"],
}

const featureNames: Record<SchemaFeature, string> = {
  passkeys: "passkeys (Passkey / WebAuthn provider)",
  password: "password accounts (Password provider)",
  "two-factor": "two-factor sign-in (twoFactor)",
  organizations: "organizations, members and invitations (organizations)",
  revocation: "session revocation and the device list",
}

/**
 * The features a Latchkey config (the source of `src/routes/plugin@auth.ts`) enables. Revocation
 * is always wanted: with its tables the database, not a per-instance memory store, remembers
 * ended sessions.
 */
export function detectFeatures(configSource: string): SchemaFeature[] {
  const found: SchemaFeature[] = []
  if (/providers\/(passkey|webauthn)\b|\b(Passkey|WebAuthn)\s*\(/.test(configSource)) {
    found.push("passkeys")
  }
  if (/providers\/password\b|\bPassword\s*\(/.test(configSource)) found.push("password")
  if (/\btwoFactor\s*:/.test(configSource)) found.push("two-factor")
  if (/core\/organizations\b|\borganizations\s*:|\bOrganizations\s*\(/.test(configSource)) {
    found.push("organizations")
  }
  found.push("revocation")
  return found
}

/** The text of the schema file for `dialect` with the tables of `enabled`. */
export function schemaFile(dialect: SchemaDialect, enabled: readonly SchemaFeature[]): string {
  const chosen = features.filter((feature) => enabled.includes(feature))
  const tables = [...baseTables, ...chosen.flatMap((feature) => featureTables[feature])]
  const described =
    chosen.length > 0 ? chosen.map((f) => `//   - ${featureNames[f]}`) : ["//   (none)"]
  return `// Latchkey's tables, written by \`npx latchkey generate --drizzle ${dialect}\` (run it again when
// the config gains a feature). Features:
${described.join("\n")}
// drizzle-kit reads them from this file: list it in drizzle.config.ts's \`schema\` (or re-export
// it from your schema), then \`npx drizzle-kit generate\` writes the migration. The adapter finds
// them by name: DrizzleAdapter(db, { schema }) with this module in \`schema\`.
export {
${tables.map((table) => `  ${table},`).join("\n")}
} from "@latchkey/adapter-drizzle/${dialect}"
`
}
