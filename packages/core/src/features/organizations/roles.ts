/**
 * Roles as permission statements (docs/design/organizations.md). One rule decides every grant:
 * a member may give (by invitation or role change) only a role whose statements are all among
 * their own, and only an owner makes owners — so nobody grants a role above their own, whatever
 * roles the app defines.
 */
import { ownerRole } from "../../kernel/types/adapters.js"
import type { PermissionStatements } from "./types.js"

export const ADMIN_STATEMENTS: PermissionStatements = Object.freeze({
  organization: ["update"],
  member: ["invite", "update-role", "remove"],
  invitation: ["create", "cancel"],
})

export const BUILT_IN_ROLES: Readonly<Record<string, PermissionStatements>> = Object.freeze({
  [ownerRole]: Object.freeze({
    ...ADMIN_STATEMENTS,
    organization: ["update", "delete", "transfer"],
  }),
  admin: ADMIN_STATEMENTS,
  member: Object.freeze({}),
})

/** A role name an app may define: lower-case words, as slugs are. */
export const ROLE_NAME = /^[a-z][a-z0-9-]{0,31}$/

/** Every role of a configuration: the built-in ones and the app's. */
export type RoleTable = Readonly<Record<string, PermissionStatements>>

/** The owner holds every statement of every role, so an owner can give any role. */
export function roleTable(appRoles: RoleTable | undefined): RoleTable {
  const owner: Record<string, string[]> = {}
  for (const statements of [...Object.values(appRoles ?? {}), BUILT_IN_ROLES[ownerRole]!]) {
    for (const [resource, actions] of Object.entries(statements)) {
      owner[resource] = [...new Set([...(owner[resource] ?? []), ...actions])]
    }
  }
  return Object.freeze({ ...appRoles, ...BUILT_IN_ROLES, [ownerRole]: Object.freeze(owner) })
}

/** Whether `role`'s statements include every action of `wanted`. Unknown roles hold nothing. */
export function allows(roles: RoleTable, role: string, wanted: PermissionStatements): boolean {
  const held = Object.hasOwn(roles, role) ? roles[role]! : undefined
  if (!held) return false
  return Object.entries(wanted).every(([resource, actions]) => {
    const have = Object.hasOwn(held, resource) ? held[resource]! : []
    return actions.every((action) => have.includes(action))
  })
}

/** Whether a member with role `granter` may give role `given` (never above their own). */
export function mayGrant(roles: RoleTable, granter: string, given: string): boolean {
  if (!Object.hasOwn(roles, given)) return false
  if (given === ownerRole) return granter === ownerRole
  return allows(roles, granter, roles[given]!)
}
