/**
 * Events are notifications: awaited (so a handler can finish writing before the response),
 * but isolated — a handler that throws is logged as `EventError` and the flow goes on.
 */
import { EventError } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"
import type { EventCallbacks } from "./callbacks.js"

export async function emitEvent<K extends keyof EventCallbacks>(
  events: EventCallbacks,
  logger: Logger,
  name: K,
  message: Parameters<NonNullable<EventCallbacks[K]>>[0],
): Promise<void> {
  const handler = events[name] as ((m: typeof message) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (cause) {
    logger.error(
      new EventError(`The "${name}" event handler threw`, { cause, details: { event: name } }),
    )
  }
}
