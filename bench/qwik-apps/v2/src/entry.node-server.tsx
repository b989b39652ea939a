/**
 * The bench server on Qwik 2: `@qwik.dev/router`'s Node middleware, which finds the routes
 * itself (see `../../src/listen.ts`).
 */
import { createQwikRouter } from "@qwik.dev/router/middleware/node"
import { listen } from "../../src/listen"
import render from "./entry.ssr"

listen(createQwikRouter({ render }))
