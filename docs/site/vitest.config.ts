import { defineConfig } from "vitest/config"

// The site's own tests: a build of the whole site and Chromium over it. Separate from the
// packages' suite (root vitest.config.ts) because it builds with the site's own VitePress.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // `expect.poll` gives up after 1 s by default; a page rendering under load can take longer.
    // As long as Playwright's own waits (30 s): a value that never comes still fails.
    expect: { poll: { timeout: 30_000 } },
  },
})
