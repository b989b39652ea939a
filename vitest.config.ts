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
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine,
    // where most files wait on PostgreSQL, Redis, a spawned server or `tsc`. Every file isolates
    // its state (its own schema, key prefix or server), so two run side by side.
    maxWorkers: 2,
    // A timeout must mean a hang, not a busy machine: `npm test` runs these beside the browser
    // tests, and CI must pass with the machine under twice its cores in load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
