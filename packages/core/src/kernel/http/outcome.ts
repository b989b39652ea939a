/** What an action produces; `respond.ts` turns it into a `Response`. */
export type Outcome =
  | { kind: "json"; status?: number; body: unknown; headers?: Record<string, string> }
  | {
      kind: "html"
      status: number
      html: string
      headers?: Record<string, string>
      /** CSP hashes (`'sha256-…'`) of the page's own inline scripts; none: no script runs. */
      scriptHashes?: readonly string[]
    }
  | { kind: "redirect"; url: string; headers?: Record<string, string> }
  | { kind: "empty"; status: number; headers?: Record<string, string> }

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Outcome => ({
  kind: "json",
  status,
  body,
  ...(headers ? { headers } : {}),
})

export const redirect = (url: string): Outcome => ({ kind: "redirect", url })

/** Headers for responses that carry session state: no cache of any kind may keep them. */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
})
