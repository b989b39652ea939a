#!/usr/bin/env node
/**
 * `npm run test:e2e`: the browser tests' three projects (`e2e/vitest.config.ts`) in two lanes
 * side by side, each project in a Vitest process of its own: `init`'s files in one lane, the
 * demo's then the fixture apps' in the other (about as long). While one waits on a browser or a
 * server the other builds. Each writes its JSON report (`.tmp/e2e-<project>.json`); the exit
 * code is the worst. `E2E_PART` tells each global setup what its project needs (the demo server,
 * or the packed packages).
 */
import { buildForE2e } from "../e2e/build-packages.mjs"
import { runLanes } from "./test-lanes.mjs"

// The builds first, once (`npm test` has built everything already): then neither process builds.
if (!process.env.E2E_SKIP_BUILD) buildForE2e()
process.exit(await runLanes([["init"], ["demo", "apps"]], process.argv.slice(2)))
