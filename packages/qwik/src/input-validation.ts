/**
 * `zod$` for the binding's actions, without a segment per schema.
 *
 * The optimizer extracts the argument of every `zod$(...)` into a segment of its own, and each
 * segment is a symbol of the app's client manifest. Qwik 2 maps every symbol of that manifest
 * again on each render (`resolveManifest`), so the binding's schemas cost every page of every
 * app, though a validator never runs in the browser: `zodQrl` returns nothing there. Here the
 * schema stays in this module as an inlined QRL, which no build extracts and `isServer` removes
 * from client builds.
 *
 * A schema is a function of Qwik's `z` (see `schemas.ts`): a client build that keeps its source
 * never calls it, so the binding builds no zod schema in the browser.
 */
import { inlinedQrl, type QRL } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import * as router from "@builder.io/qwik-city"

/**
 * Where the `Qrl` form of `zod$` is: Qwik 1 and Qwik 2 both export it, for the optimizer, and only
 * Qwik 1's types declare it. Read as a member where it is called, so a client build, where that
 * code is dead, keeps nothing else of the namespace.
 */
type WithZodQrl = { zodQrl: (schema: QRL<unknown>) => unknown }

/**
 * `inlinedQrl` under another name: Qwik 1's optimizer reads every `inlinedQrl(fn, name)` call of
 * the modules it transforms and fails (a panic, not an error) unless `name` is a string literal.
 * The name here is built per schema: the optimizer has no use for it, and the runtime only names
 * the QRL with it.
 */
const inlineSchema: typeof inlinedQrl = inlinedQrl

/**
 * `zod$` under the symbol `latchkey_zod_<name>` (unique per schema): same validation, same typed
 * input and `fieldErrors`, no client manifest entry.
 */
export function serverZod(name: string): typeof router.zod$ {
  return ((schema: unknown) =>
    isServer
      ? (router as unknown as WithZodQrl).zodQrl(inlineSchema(schema, `latchkey_zod_${name}`))
      : undefined) as typeof router.zod$
}
