/**
 * Expiry cases on a loaded machine. A case that checks a short time to live makes calls that
 * must land before it ends (a second `hit` inside the window, a read-back of what it just set),
 * then waits past it. With the machine under twice its cores in load, a local Redis call has
 * taken over 150 ms and a call through a worker bridge longer: the calls can outlast a short TTL,
 * and the case then fails for no fault of the store. A longer fixed TTL only moves the line.
 */

export interface FittingRun<T> {
  /** The time to live the calls fitted in: wait past it (twice it) before the expiry checks. */
  ttlMs: number
  /** What the calls returned, in the run that fitted. */
  result: T
}

/**
 * Runs `calls(ttlMs)` (which sets short-lived keys, fresh ones each run, and reads them back)
 * and measures it from before its first call to after its last. The store starts a TTL when a
 * write reaches it, after the start, so calls that ended within `ttlMs` all landed inside the
 * TTL. If they did not, the run proves nothing and `calls` runs again with twice the TTL, at
 * most `tries` times in all. Only the run that fitted is returned: a store that expires a key
 * early still fails the case, whatever the load.
 */
export async function withinTtl<T>(
  ttlMs: number,
  calls: (ttlMs: number) => Promise<T>,
  tries = 5,
): Promise<FittingRun<T>> {
  let ttl = ttlMs
  for (let attempt = 1; ; attempt++) {
    const started = performance.now()
    const result = await calls(ttl)
    const took = performance.now() - started
    if (took < ttl) return { ttlMs: ttl, result }
    if (attempt >= tries) {
      throw new Error(
        `the calls took ${Math.round(took)} ms, longer than a ${ttl} ms TTL, ${tries} times`,
      )
    }
    ttl *= 2
  }
}
