/** The app's event handlers (`events` in the configuration): notifications of what happened. */
import type { AuthError } from "../errors/errors.js"
import type { JWT } from "../token/jwt.js"
import type { AdapterSession, AdapterUser } from "../types/adapters.js"
import type { Awaitable } from "../types/awaitable.js"
import type { AccountClaimedMessage } from "../types/claim.js"
import type { Account, Profile, Session, User } from "../types/records.js"

export interface EventCallbacks {
  signIn?: (message: {
    user: User
    account?: Account | null
    profile?: Profile
    isNewUser?: boolean
  }) => Awaitable<void>
  signOut?: (message: { session?: AdapterSession | null; token?: JWT | null }) => Awaitable<void>
  createUser?: (message: { user: User }) => Awaitable<void>
  updateUser?: (message: { user: User }) => Awaitable<void>
  linkAccount?: (message: { user: User | AdapterUser; account: Account }) => Awaitable<void>
  session?: (message: { session: Session; token?: JWT }) => Awaitable<void>
  /**
   * A provider refused to refresh an access token (`invalid_grant`). Fired once per refused
   * refresh token; the session now carries `error: "RefreshTokenError"`.
   */
  refreshTokenError?: (message: {
    provider: string
    userId: string
    error: AuthError
  }) => Awaitable<void>
  /**
   * Latchkey: a proof of the address (email link, verification or reset link, a provider that
   * vouches for the email) met a row whose address was never proved, and claimed it: every
   * credential Latchkey manages was removed and every session ended, the row is now proven and
   * the prover signed in. The user id stays: clear here what the app keeps for the row (its
   * own password, app data a squatter may have left). Defining this handler also lets a claim
   * proceed on a row with app-managed credentials (`account.hasCredentials`), which Latchkey
   * cannot remove: the handler must.
   */
  accountClaimed?: (message: AccountClaimedMessage) => Awaitable<void>
  /**
   * Latchkey: something changed in an organization (the organizations feature): a member
   * added, removed (or left), a role changed, an invitation sent or accepted, the organization
   * deleted. `actorId` is who did it (`null`: an operator function).
   */
  organization?: (message: OrganizationEvent) => Awaitable<void>
}

/** What the `organization` event reports. */
export type OrganizationEvent = { organizationId: string; actorId: string | null } & (
  | { type: "member-added"; userId: string; role: string }
  | { type: "member-removed"; userId: string; reason: "removed" | "left" | "user-removed" }
  | { type: "role-changed"; userId: string; from: string; to: string }
  | { type: "invitation-sent"; invitationId: string; email: string; role: string }
  | { type: "invitation-cancelled"; invitationId: string }
  | { type: "invitation-accepted"; invitationId: string; userId: string; role: string }
  | { type: "organization-created" }
  | { type: "organization-deleted" }
)
