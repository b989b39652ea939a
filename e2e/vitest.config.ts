/**
 * Browser tests of the demo app in Debian's Chromium (playwright-core, no browser download).
 * `global-setup.ts` builds the demo once and starts it on a free loopback port.
 */
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.ts"],
    globalSetup: ["./global-setup.ts"],
    environment: "node",
    // One server, one browser: files run one after another and share nothing but the server.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
