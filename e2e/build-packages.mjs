/**
 * The builds the browser tests use: the core, the Postgres and Drizzle adapters, both bindings and the demo,
 * exactly as `npm run demo` builds them. Shared by `global-setup.ts` and `scripts/test-e2e.mjs`
 * (which builds once for its two Vitest processes).
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

export const E2E_WORKSPACES = [
  "@latchkey/core",
  "@latchkey/adapter-postgres",
  "@latchkey/adapter-drizzle",
  "@latchkey/qwik",
  "@latchkey/qwik2",
  "latchkey-example-qwik-app",
]

export function buildForE2e() {
  execFileSync("npm", ["run", "build", ...E2E_WORKSPACES.flatMap((w) => ["-w", w])], {
    cwd: root,
    // Vitest sets NODE_ENV=test, which would make Vite build with `import.meta.env.DEV` true
    // (Qwik then emits dev-only preloader paths). Build exactly as `npm run demo` does.
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  })
}
