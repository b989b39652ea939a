/**
 * Server bodies of the organizations loader, actions and route guard. The loader and actions
 * call the core's `{basePath}/organization[/<op>]` with internal requests, so the core alone
 * decides (session, CSRF by the action's own `Origin`, membership, role, the last owner),
 * exactly as for a client calling it over HTTP. Actions do not navigate: they return the
 * core's answer or Qwik's `fail()` with the refusal's code and its message (written for the
 * person: "An organization always keeps an owner…").
 */
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city"
import { signInUrl } from "./account.js"
import { basePathOf, resolveConfig } from "./config.js"
import { buildCoreGet, buildCoreRequest, callCore, cookieHeader } from "./internal-request.js"
import { loadSession } from "./session.js"
import { hasSession, readSessionFromMap } from "./shared-map.js"

/** The operations of `POST {basePath}/organization/<op>` the actions use. */
export type OrganizationOp =
  | "create"
  | "update"
  | "delete"
  | "set-active"
  | "invite"
  | "cancel-invitation"
  | "update-role"
  | "remove-member"
  | "leave"
  | "transfer"

export interface OrganizationSummary {
  id: string
  name: string
  slug: string
  createdAt: string
  role: string
}

/** What `useOrganizations` loads. */
export interface OrganizationsData {
  organizations: OrganizationSummary[]
  /** The session's organization, re-checked: `null` once the user is no longer in it. */
  active: { organization: Omit<OrganizationSummary, "role">; role: string } | null
  /** The active organization's members (and invitations, for those who manage them). */
  detail: {
    role: string
    roles: string[]
    members: {
      userId: string
      role: string
      name: string | null
      email: string | null
      createdAt: string
    }[]
    invitations: { id: string; email: string; role: string; expiresAt: string; expired: boolean }[]
  } | null
}

/** What a failed organization action returns (through `fail()`). */
export interface OrganizationActionFailure {
  /** `code`: the core's (`last-owner`, `role-above-yours`, `slug-taken`, …) or the error type. */
  error: { type: string; code: string; message: string }
  formErrors: string[]
  /** Where to sign in: set when the session is gone. */
  signInUrl?: string
}

const fallbackMessages: Record<string, string> = {
  SessionRequired: "You are signed out. Sign in to manage your organizations.",
  MissingCSRF: "This page expired. Reload it and try again.",
  RateLimited: "Too many changes. Wait a moment and try again.",
}

/** `useOrganizations`: the signed-in user's organizations, or `null` when signed out. */
export async function loadOrganizations(
  event: RequestEventCommon,
): Promise<OrganizationsData | null> {
  const config = await resolveConfig(event, undefined)
  const base = `${basePathOf(config)}/organization`
  const list = await callCore(event, config, buildCoreGet(event, base))
  if (list.status !== 200) return null
  const { organizations, active } = list.body as Omit<OrganizationsData, "detail">
  if (!active) return { organizations, active, detail: null }
  const query = `?organizationId=${encodeURIComponent(active.organization.id)}`
  const detail = await callCore(event, config, buildCoreGet(event, `${base}/detail${query}`))
  return {
    organizations,
    active,
    detail: detail.status === 200 ? (detail.body as OrganizationsData["detail"]) : null,
  }
}

/** One organization action: the core's JSON answer, or a typed `fail()`. */
export async function organizationAction(
  event: RequestEventAction,
  op: OrganizationOp,
  input: Record<string, string | undefined>,
) {
  const config = await resolveConfig(event, undefined)
  const request = buildCoreRequest(event, {
    path: `${basePathOf(config)}/organization/${op}`,
    body: input,
    returnRedirect: false,
  })
  request.headers.set("accept", "application/json")
  const { status, body } = await callCore(event, config, request)
  const answer = (body ?? {}) as {
    ok?: unknown
    error?: unknown
    code?: unknown
    message?: unknown
  }
  if (status === 200 && answer.ok === true) return body as { ok: true; [key: string]: unknown }
  const type = typeof answer.error === "string" ? answer.error : "Error"
  const code = typeof answer.code === "string" ? answer.code : type
  // The core's organization refusals are written for the person; other types get ours.
  const message =
    type === "OrganizationError" && typeof answer.message === "string"
      ? answer.message
      : (fallbackMessages[type] ?? "Something went wrong. Reload the page and try again.")
  const failure: OrganizationActionFailure = {
    error: { type, code, message },
    formErrors: [message],
  }
  if (type === "SessionRequired") failure.signInUrl = signInUrl(event, config, false)
  return event.fail(status >= 400 && status < 600 ? status : 500, failure)
}

/** The server half of `hasOrganizationPermission`: the core's `hasPermission`, read now. */
export async function hasOrganizationPermissionBody(
  event: RequestEventCommon,
  wanted: Readonly<Record<string, readonly string[]>>,
): Promise<boolean> {
  const config = await resolveConfig(event, undefined)
  const { hasPermission } = await import("@latchkey/core/organizations")
  return hasPermission(config, { request: requestWithCookies(event) }, wanted)
}

/** The page request as the core reads a session from it (with cookies set in this request). */
function requestWithCookies(event: RequestEventCommon): Request {
  const headers = new Headers()
  const cookie = cookieHeader(event)
  if (cookie !== null) headers.set("cookie", cookie)
  return new Request(event.url, { headers })
}

/**
 * The server half of `requireOrganizationPermission` (see `organizations-guard.ts`): the
 * active organization, when the user's role there holds `wanted`; a 302 to the sign-in page
 * when signed out; a 403 otherwise.
 */
export async function requireOrganizationPermissionBody(
  event: RequestEventCommon,
  wanted: Readonly<Record<string, readonly string[]>>,
) {
  const config = await resolveConfig(event, undefined)
  // Loaded only here: an app that never guards a route by organization keeps the feature out.
  const { getActiveOrganization, roleAllows } = await import("@latchkey/core/organizations")
  const request = requestWithCookies(event)
  const active = await getActiveOrganization(config, request)
  if (!active) {
    if (!hasSession(event)) await loadSession(event, config)
    if (readSessionFromMap(event) === null) {
      throw event.redirect(302, signInUrl(event, config, false))
    }
    throw event.error(403, "Choose an organization first")
  }
  // The role was read with the membership just now: no second read.
  if (!(await roleAllows(config, active.role, wanted))) {
    throw event.error(403, "Your role in this organization does not allow this")
  }
  return active
}
