/**
 * Qwik City 1 hands every loader the request event of the page, whose body an action has read:
 * nothing builds a request from it again, so there is nothing to keep. `@latchkey/qwik2`
 * compiles its own version of this module (packages/qwik2/src).
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"

/** Keep an action's request body readable for the loaders that run after it: a no-op here. */
export async function keepActionBody(_event: RequestEventCommon): Promise<void> {}
