/**
 * Request → the facts actions need: action and provider from the path, query, cookies and a
 * size-capped, strictly decoded body. Anything malformed is an `InvalidRequest` (400), never
 * a 500.
 */

import { InvalidRequest, UnknownAction } from "../errors/errors.js"
import { parseCookieHeader } from "../token/cookie-header.js"
import { ACTIONS_WITH_PROVIDER, type AuthAction, isAuthAction } from "./actions.js"

/** Auth bodies are a handful of fields; 64 KiB leaves room and bounds memory per request. */
export const MAX_BODY_BYTES = 64 * 1024

export interface ParsedRequest {
  readonly action: AuthAction
  readonly providerId: string | undefined
  readonly method: string
  readonly url: URL
  readonly query: Readonly<Record<string, string>>
  readonly cookies: Readonly<Record<string, string | undefined>>
  /** Form or JSON fields of a POST; `{}` otherwise. Null prototype: no `__proto__` games. */
  readonly body: Readonly<Record<string, unknown>>
  /** The body as received (UTF-8), for handing an intact body to `authorize`. */
  readonly rawBody: string | undefined
  readonly contentType: "json" | "form" | "other" | "none"
}

export type RouteResult =
  | { action: AuthAction; providerId: string | undefined }
  | { error: UnknownAction | InvalidRequest }

/**
 * `<basePath>/<action>[/<providerId>]`, trailing slashes tolerated. Plain string matching at a
 * segment boundary: `/authsignin` is not `signin` (Auth.js builds an unescaped regex).
 */
export function parseRoute(pathname: string, basePath: string): RouteResult {
  const prefix = basePath === "/" ? "/" : `${basePath}/`
  if (!pathname.startsWith(prefix)) {
    return { error: new UnknownAction(`This path is not under the auth base path ${basePath}`) }
  }
  const segments = pathname.slice(prefix.length).split("/").filter(Boolean)
  let decoded: string[]
  try {
    decoded = segments.map((s) => decodeURIComponent(s))
  } catch {
    return { error: new InvalidRequest("The URL path has malformed percent-encoding") }
  }
  const [action, providerId, ...extra] = decoded
  if (!action || !isAuthAction(action)) {
    return {
      error: new UnknownAction(
        "Unknown auth action. Valid actions: providers, session, csrf, signin, signout, callback, verify-request, error, webauthn-options, account",
      ),
    }
  }
  if (extra.length > 0 || (providerId !== undefined && !ACTIONS_WITH_PROVIDER.has(action))) {
    return { error: new UnknownAction(`The ${action} action takes no further path segments`) }
  }
  return { action, providerId }
}

/** Query parameters, last value wins (as in Auth.js). */
export function parseQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = Object.create(null)
  // `searchParams` builds a URLSearchParams object on first use: not worth it for no query.
  if (url.search === "") return query
  for (const [key, value] of url.searchParams) query[key] = value
  return query
}

/** Read a POST body: at most `MAX_BODY_BYTES`, valid UTF-8, then JSON or form fields. */
export async function readBody(request: Request): Promise<{
  body: Record<string, unknown>
  rawBody: string | undefined
  contentType: ParsedRequest["contentType"]
}> {
  const type = mediaType(request.headers.get("content-type"))
  const declared = request.headers.get("content-length")
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
  const bytes = await readCapped(request)
  let text: string
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new InvalidRequest("The request body is not valid UTF-8")
  }
  if (type === "application/json" || type?.endsWith("+json")) {
    return { body: parseJsonObject(text), rawBody: text, contentType: "json" }
  }
  if (type === "application/x-www-form-urlencoded") {
    return { body: parseForm(text), rawBody: text, contentType: "form" }
  }
  return {
    body: Object.create(null),
    rawBody: text,
    contentType: type === undefined && text === "" ? "none" : "other",
  }
}

function mediaType(header: string | null): string | undefined {
  const type = header?.split(";")[0]?.trim().toLowerCase()
  return type || undefined
}

function tooLarge(): InvalidRequest {
  return new InvalidRequest(`The request body is larger than ${MAX_BODY_BYTES} bytes`)
}

async function readCapped(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const parts: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {})
        throw tooLarge()
      }
      parts.push(value)
    }
  } catch (error) {
    if (error instanceof InvalidRequest) throw error
    throw new InvalidRequest("The request body could not be read")
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** A JSON body must be an object; empty means no fields. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return Object.create(null)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new InvalidRequest("The request body is not valid JSON")
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidRequest("The JSON request body must be an object")
  }
  return Object.assign(Object.create(null), value) as Record<string, unknown>
}

/**
 * `application/x-www-form-urlencoded`, strictly: malformed percent-encoding is an error
 * (URLSearchParams would silently keep the raw text). Last value of a name wins.
 */
export function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null)
  if (text === "") return fields
  for (const pair of text.split("&")) {
    if (pair === "") continue
    const eq = pair.indexOf("=")
    const rawName = eq === -1 ? pair : pair.slice(0, eq)
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1)
    try {
      fields[decodeFormComponent(rawName)] = decodeFormComponent(rawValue)
    } catch {
      throw new InvalidRequest("The form body has malformed percent-encoding")
    }
  }
  return fields
}

function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, " "))
}

export { parseCookieHeader }
