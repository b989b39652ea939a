/**
 * `within(promise, ms, onTimeout)`: the promise's outcome, or `onTimeout()`'s error once `ms`
 * have passed — whichever comes first. The promise is not cancelled; its late rejection is
 * swallowed so it never surfaces as unhandled.
 */
export async function within<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  promise.catch(() => {})
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
