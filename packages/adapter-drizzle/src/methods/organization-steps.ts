/**
 * The shape of the organizations steps each dialect implements its own way
 * (`organizations-locked.ts`, `organizations-serial.ts`), and what they are given.
 */
import type { Adapter } from "@latchkey/core/adapters"
import type { Fields } from "../query.js"
import type { LatchkeyTables } from "../tables.js"
import type { MethodContext } from "./group.js"

export type OrganizationTables = Required<
  Pick<LatchkeyTables, "users" | "organizations" | "members" | "invitations">
>

/** The methods whose rule each dialect keeps its own way. */
export type OrganizationSteps = Required<
  Pick<
    Adapter,
    | "createOrganization"
    | "updateOrganization"
    | "deleteOrganization"
    | "updateMemberRole"
    | "removeMember"
    | "acceptInvitation"
  >
>

/** What both kinds of steps share: the tables, their fields, and the context. */
export interface StepContext {
  readonly ctx: MethodContext
  readonly t: OrganizationTables
  readonly fields: {
    organization: Fields
    member: Fields
  }
}
