/**
 * Organizations for Qwik City: a loader and actions usable with `<Form>` with or without
 * JavaScript, and a guard for the app's own routes. Export them from
 * `src/routes/plugin@auth.ts` next to `QwikAuth$`'s:
 *
 * ```ts
 * export const {
 *   useOrganizations, useCreateOrganization, useSetActiveOrganization, useInviteMember,
 *   useCancelInvitation, useUpdateMemberRole, useRemoveMember, useLeaveOrganization, …
 * } = organizationActions()
 * ```
 *
 * They find the config through the request (the plugin's `onRequest` parks it there), so they
 * capture nothing of the app's config, and their bodies load the server half on demand. The
 * mailed invitation link opens the core's own page (`{basePath}/organization/accept`).
 */
// biome-ignore-all lint/correctness/useQwikLoaderLocation: a library defines loaders and actions for the app, which re-exports them from src/routes/plugin@auth.ts (route boundary)
import { globalAction$, routeLoader$ } from "@builder.io/qwik-city"
import { serverZod } from "./input-validation.js"
import type { OrganizationsData } from "./organizations-server.js"
import { actionOptions, sessionLoaderOptions } from "./route-options.js"
import {
  organizationMemberSchema as memberSchema,
  organizationIdSchema as orgIdSchema,
} from "./schemas.js"
import { server } from "./server-half.js"

/** @public */
export function organizationActions() {
  /**
   * The signed-in user's organizations with their role, the active one (re-checked: `null` once
   * the user was removed from it), and its members (and invitations, for those who manage
   * them); `null` when signed out.
   */
  const useOrganizations = routeLoader$(
    async (event): Promise<OrganizationsData | null> => (await server()).loadOrganizations(event),
    // One user's data: never in a shared cache (Qwik 2; nothing on Qwik City 1).
    sessionLoaderOptions(),
  )

  /** `{ name, slug }`: a new organization, the user its owner (and it becomes the active one). */
  const useCreateOrganization = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "create", input),
    actionOptions(
      serverZod("useCreateOrganization")((z) => ({
        name: z.string().trim().min(1).max(100),
        slug: z.string().trim().min(2).max(48),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId, name?, slug? }` (admins and owners). */
  const useUpdateOrganization = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "update", input),
    actionOptions(
      serverZod("useUpdateOrganization")((z) => ({
        organizationId: z.string().min(1).max(200),
        name: z.string().trim().max(100).optional(),
        slug: z.string().trim().max(48).optional(),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId }`: deletes it with its members and invitations (owners). */
  const useDeleteOrganization = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "delete", input),
    actionOptions(serverZod("useDeleteOrganization")(orgIdSchema), useOrganizations),
  )

  /** `{ organizationId }` (empty: none): the organization the session acts in. */
  const useSetActiveOrganization = globalAction$(
    async (input, event) =>
      (await server()).organizationAction(event, "set-active", {
        organizationId: input.organizationId ?? "",
      }),
    actionOptions(
      serverZod("useSetActiveOrganization")((z) => ({
        organizationId: z.string().max(200).optional(),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId, email, role }`: mails an invitation (a role no higher than yours). */
  const useInviteMember = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "invite", input),
    actionOptions(
      serverZod("useInviteMember")((z) => ({
        organizationId: z.string().min(1).max(200),
        email: z.string().trim().min(3).max(320),
        role: z.string().min(1).max(32),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId, invitationId }`. */
  const useCancelInvitation = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "cancel-invitation", input),
    actionOptions(
      serverZod("useCancelInvitation")((z) => ({
        organizationId: z.string().min(1).max(200),
        invitationId: z.string().min(1).max(200),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId, userId, role }`. */
  const useUpdateMemberRole = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "update-role", input),
    actionOptions(
      serverZod("useUpdateMemberRole")((z) => ({
        organizationId: z.string().min(1).max(200),
        userId: z.string().min(1).max(200),
        role: z.string().min(1).max(32),
      })),
      useOrganizations,
    ),
  )

  /** `{ organizationId, userId }` (your own id: leaving). */
  const useRemoveMember = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "remove-member", input),
    actionOptions(serverZod("useRemoveMember")(memberSchema), useOrganizations),
  )

  /** `{ organizationId }`: the signed-in user leaves (refused for the last owner). */
  const useLeaveOrganization = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "leave", input),
    actionOptions(serverZod("useLeaveOrganization")(orgIdSchema), useOrganizations),
  )

  /** `{ organizationId, userId }`: that member becomes an owner, you an admin (owners). */
  const useTransferOwnership = globalAction$(
    async (input, event) => (await server()).organizationAction(event, "transfer", input),
    actionOptions(serverZod("useTransferOwnership")(memberSchema), useOrganizations),
  )

  return {
    useOrganizations,
    useCreateOrganization,
    useUpdateOrganization,
    useDeleteOrganization,
    useSetActiveOrganization,
    useInviteMember,
    useCancelInvitation,
    useUpdateMemberRole,
    useRemoveMember,
    useLeaveOrganization,
    useTransferOwnership,
  }
}
