/**
 * Browser tests in Debian's Chromium (playwright-core, no browser download). `global-setup.ts`
 * builds the demo once and starts it on a free loopback port.
 *
 * Three projects, each running its files one after another:
 * - `demo`: the files that share the demo server the global setup starts (or a server of their
 *   own built from the repository), light on CPU;
 * - `apps`: the fixture apps (Qwik's starter plus our tarballs), each installed, built and served
 *   by its file: long, CPU-heavy builds;
 * - `init`: `npx latchkey init` on the starters, each choice signed in with (about half of the
 *   fixture apps' time, so a project of its own that can run beside the others).
 * `scripts/test-lanes.mjs` (what `npm test` and `npm run test:e2e` run) runs them in Vitest
 * processes side by side; `vitest run --config e2e/vitest.config.ts` alone runs them in turn.
 */
import { defineConfig } from "vitest/config"

const root = import.meta.dirname

const demoFiles = [
  "account-page.e2e.ts",
  "address-claim.e2e.ts",
  "auth-flows.e2e.ts",
  "email.e2e.ts",
  "endpoints.e2e.ts",
  "organizations.e2e.ts",
  "passkey-demo.e2e.ts",
  "passkey-signin-page.e2e.ts",
  "password-accounts.e2e.ts",
  "stale-oauth.e2e.ts",
]

// init's per-target apps (init-cloudflare, init-runtimes) run with the fixture apps: the lane
// of the unit tests and init was the longer by some 230 s (scripts/test-all.mjs).
const initFiles = ["init.e2e.ts", "init-choices.e2e.ts"]

// Generous: on a loaded machine (CI beside other jobs, or the projects side by side on two
// cores) a browser flow that takes 5 s idle can take 30; a timeout must mean a hang, not a
// busy machine.
//
// `expect.poll` gives up after 1 s unless told otherwise: a timing threshold, and what the
// polls here wait for is a page's answer to a click (an action, a loader re-run, a `load`
// event), which a loaded machine takes longer than that to give. They wait as long as
// Playwright's own waits (`waitFor`, `waitForURL`: 30 s); a value that never comes still fails.
const shared = {
  root,
  environment: "node",
  testTimeout: 90_000,
  hookTimeout: 180_000,
  expect: { poll: { timeout: 30_000 } },
} as const

export default defineConfig({
  test: {
    root,
    globalSetup: ["./global-setup.ts"],
    projects: [
      // One server, one browser per file: files run one after another.
      { test: { ...shared, name: "demo", include: demoFiles, fileParallelism: false } },
      {
        test: {
          ...shared,
          name: "apps",
          include: ["**/*.e2e.ts"],
          exclude: [...demoFiles, ...initFiles, "**/node_modules/**"],
          fileParallelism: false,
        },
      },
      { test: { ...shared, name: "init", include: initFiles, fileParallelism: false } },
    ],
  },
})
