/** The `organizations` option, checked and resolved once per configuration. */
import { type ResolvedConfig, settingsOf } from "../../kernel/config/resolve.js"
import { type AuthError, InvalidParameter } from "../../kernel/errors/errors.js"
import { BUILT_IN_ROLES, ROLE_NAME, type RoleTable, roleTable } from "./roles.js"
import type { OrganizationsOptions } from "./types.js"

export const DEFAULT_MAX_PER_USER = 10
export const DEFAULT_INVITATION_MAX_AGE = 48 * 3600

export interface ResolvedOrganizations {
  readonly maxPerUser: number
  readonly invitationMaxAge: number
  readonly roles: RoleTable
  readonly sendInvitation: OrganizationsOptions["sendInvitation"]
}

export const FEATURE_ID = "organizations"

/** The resolved `organizations` of `config`; `undefined` when the feature is off. */
export function organizationSettings(
  config: Pick<ResolvedConfig, "settings">,
): ResolvedOrganizations | undefined {
  return settingsOf<ResolvedOrganizations>(config, FEATURE_ID)
}

export function resolveOrganizations(
  options: OrganizationsOptions | undefined,
): ResolvedOrganizations | undefined {
  if (options === undefined || options === null || typeof options !== "object") return undefined
  return Object.freeze({
    maxPerUser: options.maxPerUser ?? DEFAULT_MAX_PER_USER,
    invitationMaxAge: options.invitationMaxAge ?? DEFAULT_INVITATION_MAX_AGE,
    roles: roleTable(options.roles),
    sendInvitation: options.sendInvitation,
  })
}

const positiveInteger = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value > 0

/** The problems of the `organizations` options (none when it is unset). */
export function checkOrganizations(
  options: OrganizationsOptions | undefined,
  problems: AuthError[],
): void {
  if (options === undefined) return
  if (typeof options !== "object" || options === null) {
    problems.push(new InvalidParameter("organizations", "must be an object: Organizations({ … })"))
    return
  }
  if (typeof options.sendInvitation !== "function") {
    problems.push(
      new InvalidParameter(
        "organizations.sendInvitation",
        "must be a function that mails the invitation link ({ to, url, organization, … })",
      ),
    )
  }
  if (options.maxPerUser !== undefined && !positiveInteger(options.maxPerUser)) {
    problems.push(new InvalidParameter("organizations.maxPerUser", "must be a positive integer"))
  }
  const age = options.invitationMaxAge
  if (age !== undefined && (!positiveInteger(age) || age > 30 * 86_400)) {
    problems.push(
      new InvalidParameter(
        "organizations.invitationMaxAge",
        "must be a whole number of seconds, at most 30 days",
      ),
    )
  }
  checkRoles(options.roles, problems)
}

function checkRoles(roles: OrganizationsOptions["roles"], problems: AuthError[]): void {
  if (roles === undefined) return
  if (typeof roles !== "object" || roles === null) {
    problems.push(new InvalidParameter("organizations.roles", "must map role names to statements"))
    return
  }
  for (const [name, statements] of Object.entries(roles)) {
    const where = `organizations.roles.${name}`
    if (Object.hasOwn(BUILT_IN_ROLES, name)) {
      problems.push(new InvalidParameter(where, "owner, admin and member are built in"))
    } else if (!ROLE_NAME.test(name)) {
      problems.push(new InvalidParameter(where, "a role name is lower-case letters, digits, -"))
    }
    const valid =
      typeof statements === "object" &&
      statements !== null &&
      Object.values(statements).every(
        (actions) => Array.isArray(actions) && actions.every((a) => typeof a === "string"),
      )
    if (!valid) {
      problems.push(new InvalidParameter(where, 'must be statements: { resource: ["action", …] }'))
    }
  }
}
