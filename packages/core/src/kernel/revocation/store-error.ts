import { StoreError } from "../errors/errors.js"

/** Any failure of the revocation backend, as the `StoreError` the caller handles. */
export function asStoreError(cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause
  return new StoreError("The session revocation state could not be reached", { cause })
}
