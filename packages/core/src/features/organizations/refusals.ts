/** The refusals of the organizations feature: one typed error, a code and a fixed message. */
import { OrganizationError } from "../../kernel/errors/errors.js"

export function refuse(code: string, status: number, message: string): OrganizationError {
  return new OrganizationError(code, status, message)
}

/** Another organization's id, or one the caller is not in: never revealed to exist. */
export const notFound = (what = "organization") =>
  refuse("not-found", 404, `No such ${what} (or you are not a member of its organization)`)

export const forbidden = () =>
  refuse("forbidden", 403, "Your role in this organization does not allow this")

export const roleAboveYours = () =>
  refuse("role-above-yours", 403, "You can only give roles whose permissions you have yourself")

export const lastOwner = () =>
  refuse(
    "last-owner",
    409,
    "An organization always keeps an owner: make someone else an owner first",
  )

export const invalidInput = (message: string) => refuse("invalid-input", 400, message)

export const invitationInvalid = () =>
  refuse(
    "invitation-invalid",
    410,
    "This invitation is no longer valid: it may have been used, cancelled, replaced or have expired. Ask for a new one.",
  )
