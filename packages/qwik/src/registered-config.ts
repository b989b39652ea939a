/**
 * The config QRL of the app's `QwikAuth$` call, for code that runs outside the loaders and
 * actions `QwikAuth$` returns (`requireRecentAuth`). One app has one `plugin@auth.ts`; its
 * `QwikAuth$` call runs once per server process and sets this on the server only, so no client
 * build captures the app's config through it.
 */
import type { QRL } from "@builder.io/qwik"
import type { QwikAuthConfigFn } from "./config.js"

export const registered: { configQrl?: QRL<QwikAuthConfigFn> } = {}
