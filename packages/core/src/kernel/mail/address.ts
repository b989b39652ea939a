/**
 * The default `normalizeIdentifier` of email providers: one spelling per mailbox, so that
 * `Ann@Example.com ` and `ann@example.com` share one user, one verification token and one
 * rate-limit counter; and a refusal, with a reason a person can act on, for anything that is
 * not a plain address.
 *
 * Stricter than Auth.js on purpose. Auth.js truncates the domain at the first `,` and accepts
 * `<`, `;` and `(`; nodemailer's address parser reads those as separators, names or comments,
 * so the mail could go to a mailbox other than the identifier the token is stored under.
 * Every RFC 5322 "special" except the one `@` is refused here, which also rules out quoted
 * local parts and domain literals: real sign-in addresses do not use them.
 */
import { EmailSignInError } from "../errors/errors.js"

/** RFC 5321 caps a forward path at 256 octets; 320 (64 + 1 + 255) is the common upper bound. */
export const MAX_EMAIL_LENGTH = 320

// A raw value this long cannot normalize to 320 characters or fewer in any useful way; refusing
// it before NFKC keeps a hostile multi-megabyte body from costing CPU.
const MAX_RAW_LENGTH = 4 * MAX_EMAIL_LENGTH

// Control (Cc), format (Cf: zero-width and bidi overrides, used to spoof addresses), private
// use (Co) and lone surrogates (Cs, not encodable in a mail header).
const invisible = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u
const whitespace = /[\s\p{Z}]/u
// RFC 5322 specials other than `@` and `.`: separators, comments, quoting and domain literals.
const specials = /[()<>[\]:;\\,"]/

function refuse(message: string, reason: string): never {
  throw new EmailSignInError(message, { details: { reason } })
}

/**
 * One spelling of a sign-in identifier (an address, a user name): trimmed, Unicode NFKC,
 * lower-cased. Idempotent.
 */
export function foldIdentifier(value: string): string {
  // NFKC after lower-casing too: lower-casing can yield a non-NFKC string (and the reverse), and
  // the second pass is what makes the result a fixed point.
  return value.trim().normalize("NFKC").toLowerCase().normalize("NFKC").trim()
}

/**
 * Trim, Unicode NFKC, lower-case ({@link foldIdentifier}); then check the shape. Throws {@link EmailSignInError} (and
 * nothing else) when the value is not a usable address. Idempotent: a returned value
 * normalizes to itself.
 */
export function normalizeIdentifier(value: unknown): string {
  if (typeof value !== "string") refuse("Enter your email address.", "missing")
  if (value.length > MAX_RAW_LENGTH) {
    refuse(`An email address has at most ${MAX_EMAIL_LENGTH} characters.`, "too-long")
  }
  const email = foldIdentifier(value)
  if (email === "") refuse("Enter your email address.", "empty")
  if (email.length > MAX_EMAIL_LENGTH) {
    refuse(`An email address has at most ${MAX_EMAIL_LENGTH} characters.`, "too-long")
  }
  if (whitespace.test(email)) refuse("An email address cannot contain spaces.", "whitespace")
  if (invisible.test(email)) {
    refuse("The email address contains an invisible or control character.", "control-character")
  }
  const special = specials.exec(email)
  if (special) {
    refuse(`An email address cannot contain "${special[0]}".`, "special-character")
  }
  const parts = email.split("@")
  if (parts.length !== 2) {
    refuse('Enter an email address with exactly one "@", like name@example.com.', "at-sign")
  }
  const [local, domain] = parts as [string, string]
  if (local === "") refuse('Add the part before the "@", like name@example.com.', "local-part")
  if (domain === "") refuse('Add the domain after the "@", like name@example.com.', "domain")
  if (domain.startsWith(".") || domain.endsWith(".") || domain.includes("..")) {
    refuse(`"${domain}" is not a valid domain.`, "domain")
  }
  return email
}

/**
 * The inbox an address delivers to, as far as we can tell without asking its provider:
 * `Carol+News@Example.com` → `carol@example.com`. Subaddress (`+tag`) delivery is near
 * universal, so each tag would otherwise be a fresh counter into the same inbox.
 */
export function mailboxOf(address: string): string {
  const email = address.normalize("NFKC").toLowerCase()
  const at = email.lastIndexOf("@")
  if (at <= 0) return email
  const local = email.slice(0, at)
  const plus = local.indexOf("+")
  // `+tag@…` with nothing before the `+` is a mailbox of its own, not a tag.
  return plus > 0 ? `${local.slice(0, plus)}${email.slice(at)}` : email
}
