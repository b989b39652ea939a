/** What the organization operations accept from a request body: checked, trimmed, bounded. */
import { invalidInput } from "./refusals.js"

/** `[a-z0-9]+(-[a-z0-9]+)*`, 2–48 characters once lower-cased: `ACME-x` and `acme-x` are one. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
/** An address as the mail providers accept one (one @, no spaces, bounded). */
const ADDRESS = /^[^\s@]{1,64}@[^\s@]{1,255}$/

export function slugOf(value: unknown): string {
  const slug = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (slug.length < 2 || slug.length > 48 || !SLUG.test(slug)) {
    throw invalidInput(
      "A slug is 2 to 48 letters, digits and single hyphens between them (such as acme-inc)",
    )
  }
  return slug
}

export function nameOf(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : ""
  // Control characters would reach mails and pages as they are.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
  if (name.length < 1 || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw invalidInput("A name is 1 to 100 characters")
  }
  return name
}

/** An id from a body or a path: a non-empty bounded string (anything else finds nothing). */
export function idOf(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "" || value.length > 200) {
    throw invalidInput(`${field} is required`)
  }
  return value
}

export function emailOf(value: unknown): string {
  const email = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (!ADDRESS.test(email)) throw invalidInput("Enter the email address to invite")
  return email
}

export function roleOf(value: unknown): string {
  if (typeof value !== "string" || value === "" || value.length > 32) {
    throw invalidInput("role is required")
  }
  return value
}
