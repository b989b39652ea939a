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
  },
})
