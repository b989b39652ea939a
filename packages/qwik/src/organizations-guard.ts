/**
 * `requireOrganizationPermission` for route code (a route's `onRequest`, a `routeLoader$`, an
 * action): the user's role in their active organization, read now, must hold the permissions
 * asked. Exported from the module the browser loads; the server half comes through a dynamic
 * import that only runs when it is called (on the server), like `requireRecentAuth`.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { server } from "./server-half.js"

/** The active organization and the user's role in it, as the guard found them. */
export interface GuardedOrganization {
  organization: { id: string; name: string; slug: string; createdAt: string }
  userId: string
  role: string
}

/**
 * Continue only when the signed-in user's role in their active organization holds `wanted`
 * (`{ project: ["delete"] }`, `{}` for any member); otherwise end the request: a 302 to the
 * sign-in page when signed out, a 403 without an active organization or the permission. Checked
 * against the membership as it is now, so a removed member is refused on their next request.
 *
 * ```ts
 * export const onRequest: RequestHandler = (event) =>
 *   requireOrganizationPermission(event, { project: ["read"] })
 * ```
 *
 * @public
 */
export async function requireOrganizationPermission(
  event: RequestEventCommon,
  wanted: Readonly<Record<string, readonly string[]>> = {},
): Promise<GuardedOrganization> {
  return (await server()).requireOrganizationPermissionBody(event, wanted)
}

/**
 * Whether the signed-in user's role in their active organization holds `wanted`, read now:
 * `false` when signed out, without an active organization, or without the permission. For
 * showing or hiding a part of a page; guard the route (and every action) on the server too.
 *
 * @public
 */
export async function hasOrganizationPermission(
  event: RequestEventCommon,
  wanted: Readonly<Record<string, readonly string[]>>,
): Promise<boolean> {
  return (await server()).hasOrganizationPermissionBody(event, wanted)
}
