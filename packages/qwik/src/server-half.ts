/**
 * The binding's server half (`./server.js`), loaded once per process, on first use.
 *
 * Loader and action bodies, and server-only functions such as `requireRecentAuth`, reach it
 * through this dynamic import, so a client build (where Qwik's optimizer drops those bodies)
 * never contains it, and under Vite's dev server the browser never fetches it.
 */

let serverHalf: Promise<typeof import("./server.js")> | undefined

/** The server half; the first call starts loading it. */
export function server(): Promise<typeof import("./server.js")> {
  serverHalf ??= import("./server.js")
  return serverHalf
}
