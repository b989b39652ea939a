/**
 * Work a request leaves for after its response: mail above all. Whether a mail is due depends
 * on whether the address has an account, so anything that depends on it (the lookup, a link
 * minted, the send) runs after the answer has left, and the answer takes as long for an address
 * with an account as for one without, however slow the mail server (issue 42).
 *
 * Where the platform can keep a request's work alive past its response (`waitUntil` on
 * Cloudflare, Vercel and Netlify: `Auth(request, config, { waitUntil })`, which the Qwik binding
 * passes), the work is handed to it; on Node it simply runs on. `flushDeferred()` waits for
 * whatever is still running, for tests and a development mailbox.
 */
import { AuthError, CallbackRouteError } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"

/** One piece of work for after the response; a failure is logged, never thrown. */
export type DeferredTask = () => Promise<void>

/** What `Auth()` is given by the platform for one request. */
export interface AuthRequestOptions {
  /**
   * Keeps `promise` alive after the response is returned (Cloudflare's `ctx.waitUntil`, Vercel's
   * and Netlify's `waitUntil`). Without it, work after the response runs as long as the process
   * does (Node, Bun, Deno).
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined
}

const running = new Set<Promise<void>>()

/** Runs `tasks` one after another once the response is on its way. */
export function startDeferred(
  tasks: readonly DeferredTask[],
  logger: Logger,
  options: AuthRequestOptions = {},
): void {
  if (tasks.length === 0) return
  const work = (async () => {
    // A macrotask later: the response is handed back to the server before any of this runs.
    await new Promise((resolve) => setTimeout(resolve, 0))
    for (const task of tasks) {
      try {
        await task()
      } catch (thrown) {
        logger.error(
          thrown instanceof AuthError
            ? thrown
            : new CallbackRouteError("Work after the response failed", { cause: thrown }),
        )
      }
    }
  })()
  running.add(work)
  void work.finally(() => running.delete(work))
  options.waitUntil?.(work)
}

/**
 * Resolves once every piece of work requests of this process left for after their response is
 * done (including work those started). For tests, and a development mailbox that shows a mail
 * as soon as it is sent.
 */
export async function flushDeferred(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running])
}
