/** A value or a promise of it: what callbacks and adapter methods may return. */
export type Awaitable<T> = T | PromiseLike<T>
