/**
 * The parts of Qwik City's request event the binding uses, recording what it does: thrown
 * redirects and sent responses, response headers, and the cookies it sets (a browser's jar).
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"

export const ORIGIN = "http://127.0.0.1:5173"

export class Redirect {
  constructor(
    readonly status: number,
    readonly location: string,
  ) {}
}
export class ErrorResponse {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}
export class Sent {
  constructor(readonly response: Response) {}
}

export interface FakeEventOptions {
  qdata?: boolean
  method?: string
  cookie?: string
  /** Replaces the same-origin `Origin` / `Sec-Fetch-Site` an action request carries. */
  headers?: Record<string, string>
  /** The app's origin as the request reached it (default {@link ORIGIN}, a loopback one). */
  origin?: string
}

export function fakeEvent(path: string, options: FakeEventOptions = {}) {
  const headers = new Headers()
  const cookies = new Map<string, string>()
  /** Every `event.cookie.set` call, deletions included, in order. */
  const setCalls: { name: string; value: string; maxAge: number | undefined }[] = []
  const sharedMap = new Map<string, unknown>()
  if (options.qdata) sharedMap.set("@isQData", true)
  const origin = options.origin ?? ORIGIN
  const url = new URL(path, origin)
  const event = {
    url,
    request: new Request(new URL(options.qdata ? `${url.pathname}q-data.json` : path, origin), {
      method: options.method ?? "POST",
      headers: {
        ...(options.headers ?? { origin, "sec-fetch-site": "same-origin" }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
    }),
    headers,
    sharedMap,
    cookie: {
      set: (name: string, value: string, o: { maxAge?: number } = {}) => {
        setCalls.push({ name, value, maxAge: o.maxAge })
        if (value === "" || o.maxAge === 0) cookies.delete(name)
        else cookies.set(name, value)
      },
    },
    redirect: (status: number, location: string) => new Redirect(status, location),
    send: (response: Response) => new Sent(response),
    error: (status: number, message: string) => new ErrorResponse(status, message),
    fail: (status: number, data: object) => ({ failed: true, status, ...data }),
  } as unknown as RequestEventCommon
  return { event, headers, cookies, setCalls }
}

/** What a promise threw (a Qwik redirect or send), or `undefined` when it returned. */
export async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
    return undefined
  } catch (thrown) {
    return thrown
  }
}
