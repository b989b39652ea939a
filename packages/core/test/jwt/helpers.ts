import { base64url } from "jose"

export const SECRET = "test-secret-0123456789abcdef0123456789abcdef"
export const SALT = "authjs.session-token"

/** Rebuild a token with a replaced protected header (the tag no longer matches it). */
export function withHeader(token: string, header: Record<string, unknown>): string {
  const [, ...rest] = token.split(".")
  return [base64url.encode(JSON.stringify(header)), ...rest].join(".")
}

export function decodeHeader(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0]!)))
}
