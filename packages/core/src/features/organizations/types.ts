/** The public types of the organizations feature (`@latchkey/core/organizations`). */
import type { Awaitable } from "../../kernel/types/awaitable.js"
import type { CarriesFeature } from "../../kernel/types/feature-key.js"

/** What a role may do: resource → actions (`{ project: ["read", "delete"] }`). */
export type PermissionStatements = Readonly<Record<string, readonly string[]>>

/** What `sendInvitation` gets: the mail to send. `url` is the single-use link (never log it). */
export interface InvitationMail {
  /** The invited address. */
  to: string
  url: string
  organization: { id: string; name: string; slug: string }
  inviter: { id: string; name: string | null; email: string | null }
  role: string
  expires: Date
}

export interface OrganizationsOptions {
  /** Organizations a user may create (those that still exist); default 10. */
  maxPerUser?: number
  /** Lifetime of an invitation, in seconds; default 48 hours. */
  invitationMaxAge?: number
  /**
   * The app's own roles, as permission statements, beside `owner`, `admin` and `member`. A
   * role named like a built-in one replaces nothing: the built-in names are reserved.
   */
  roles?: Readonly<Record<string, PermissionStatements>>
  /** Sends the invitation mail (awaited, its result unused; a throw fails the invitation and is logged). */
  sendInvitation: (mail: InvitationMail) => Awaitable<unknown>
}

/** The `organizations` option, with the feature that serves it (`Organizations({ … })`). */
export type OrganizationsConfig = OrganizationsOptions & CarriesFeature

/** An organization as the API shows it. */
export interface OrganizationView {
  id: string
  name: string
  slug: string
  createdAt: string
}

/** The active organization of a request, re-checked against the membership. */
export interface ActiveOrganization {
  organization: OrganizationView
  userId: string
  role: string
}
