/**
 * Organizations: members, roles (permission statements), invitations by mail, the active
 * organization of a session. `organizations: Organizations({ … })` in the configuration brings
 * the feature, so an app without it carries none of its code.
 *
 * ```ts
 * import { Organizations, hasPermission } from "@latchkey/core/organizations"
 *
 * const config = {
 *   providers, adapter,
 *   organizations: Organizations({
 *     roles: { billing: { invoice: ["read", "pay"] } },
 *     sendInvitation: ({ to, url, organization }) => mailer.send(to, `Join ${organization.name}`, url),
 *   }),
 * }
 * // In the app's own route: may the signed-in user delete projects in their active organization?
 * if (!(await hasPermission(config, { request }, { project: ["delete"] }))) return forbidden()
 * ```
 *
 * @module @latchkey/core/organizations
 */

import { activeMembership, activeOrganization } from "./features/organizations/active.js"
import { orgContext } from "./features/organizations/context.js"
import { organizationsFeature } from "./features/organizations/index.js"
import { allows } from "./features/organizations/roles.js"
import type {
  ActiveOrganization,
  OrganizationsConfig,
  OrganizationsOptions,
  PermissionStatements,
} from "./features/organizations/types.js"
import { currentSession } from "./kernel/account/current-session.js"
import { type ResolvedConfig, resolveConfig } from "./kernel/config/resolve.js"
import { withFeature } from "./kernel/feature/feature.js"
import { requestSessionContext } from "./kernel/session/get-session.js"
import type { AdapterMember } from "./kernel/types/adapters.js"
import type { AuthConfig } from "./types.js"

export {
  type InvitationMessage,
  invitationMessage,
} from "./features/organizations/message.js"
export type {
  ActiveOrganization,
  InvitationMail,
  OrganizationsConfig,
  OrganizationsOptions,
  OrganizationView,
  PermissionStatements,
} from "./features/organizations/types.js"
export type { OrganizationEvent } from "./kernel/events/callbacks.js"

/** The `organizations` option, with the feature that serves it. */
export function Organizations(options: OrganizationsOptions): OrganizationsConfig {
  return withFeature(options, organizationsFeature)
}

/** Whose permission to check: a member of an organization, or the user signed in on a request. */
export type PermissionSubject =
  | { userId: string; organizationId: string }
  /** The request's signed-in user, in `organizationId` or else their active organization. */
  | { request: Request; organizationId?: string }

/**
 * `config` resolved. It brings the feature itself (`Organizations({ … })`, or the Qwik bindings'
 * config, which turned plain options into it): loading `withPlainProviders` here would put every
 * feature's loader in the bundle of an app that only checks permissions.
 */
function resolved(config: AuthConfig): ResolvedConfig {
  const made = resolveConfig(config)
  if (made.configError) throw made.configError
  return made
}

/**
 * The active organization of the request's session and the user's role in it, read now: `null`
 * when signed out, when none is chosen, or when the user is no longer a member (removed, the
 * organization deleted) — whatever the session still says.
 */
export async function getActiveOrganization(
  config: AuthConfig,
  request: Request,
): Promise<ActiveOrganization | null> {
  const cookie = request.headers.get("cookie")
  if (!cookie) return null
  const made = resolved(config)
  const session = await currentSession(requestSessionContext(made, request, cookie))
  return session.signedIn ? activeOrganization(orgContext(made), session) : null
}

/**
 * Whether the subject's role holds every action of `wanted` (`{ project: ["delete"] }`), checked
 * against the membership as it is now. A non-member, a signed-out request, or no active
 * organization: `false`.
 */
export async function hasPermission(
  config: AuthConfig,
  subject: PermissionSubject,
  wanted: PermissionStatements,
): Promise<boolean> {
  const made = resolved(config)
  const oc = orgContext(made)
  let member: AdapterMember | null
  if ("request" in subject) {
    const cookie = subject.request.headers.get("cookie")
    if (!cookie) return false
    const session = await currentSession(requestSessionContext(made, subject.request, cookie))
    if (!session.signedIn) return false
    // One read of the membership: the one named, or the active one's.
    member =
      subject.organizationId === undefined
        ? await activeMembership(oc, session)
        : await oc.adapter.getMember(subject.organizationId, session.userId)
  } else {
    member = await oc.adapter.getMember(subject.organizationId, subject.userId)
  }
  return member !== null && allows(oc.settings.roles, member.role, wanted)
}

/**
 * Whether `role` (a role of the configuration: built in or the app's) holds every action of
 * `wanted`, without reading anything: for a role just read (`getActiveOrganization`'s).
 */
export async function roleAllows(
  config: AuthConfig,
  role: string,
  wanted: PermissionStatements,
): Promise<boolean> {
  return allows(orgContext(resolved(config)).settings.roles, role, wanted)
}
