import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

// "latchkey-source" points package exports at the TypeScript sources, so tests never need a build.
const conditions = ["latchkey-source", ...defaultServerConditions]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["latchkey-source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
