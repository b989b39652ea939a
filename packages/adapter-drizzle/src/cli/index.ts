/**
 * The commands of `npx latchkey` that belong to the Drizzle adapter (Node only): `generate`.
 *
 * @module @latchkey/adapter-drizzle/cli
 */
export { DEFAULT_SCHEMA_FILE, GENERATE_USAGE, type GenerateIo, runGenerate } from "./generate.js"
