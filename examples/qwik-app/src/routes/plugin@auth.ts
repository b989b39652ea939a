import { organizationActions, routeAuth$, twoFactorActions } from "@latchkey/qwik"
import { authConfig } from "~/auth"

const auth = routeAuth$(() => authConfig)

export const {
  onRequest,
  useSession,
  useSignIn,
  useSignOut,
  useUpdateSession,
  useRenamePasskey,
  useDeletePasskey,
  useRevokeSession,
  useRevokeOtherSessions,
  useUnlinkAccount,
  // Password accounts (the `Password` provider): /signup/, /forgot/, /reset/, /signin/'s
  // "send the link again", and the password and email forms of /account/.
  useSignUp,
  useResendVerification,
  useForgotPassword,
  useResetPassword,
  useChangePassword,
  useSetPassword,
  useRemovePassword,
  useChangeEmail,
} = auth

// Two-factor sign-in (the /account/two-factor/ page): enroll, confirm, disable, regenerate
// recovery codes, and the code of a pending sign-in.
const twoFactor = twoFactorActions()
export const {
  useEnrollTwoFactor,
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
  useVerifyTwoFactor,
} = twoFactor

// Organizations (the account page's section): create, choose the active one, invite by mail,
// change roles, remove, leave. The mailed link opens the core's own accept page.
const organizations = organizationActions()
export const {
  useCreateOrganization,
  useDeleteOrganization,
  useSetActiveOrganization,
  useInviteMember,
  useCancelInvitation,
  useUpdateMemberRole,
  useRemoveMember,
  useLeaveOrganization,
} = organizations

// Qwik City runs every `routeLoader$` a route module exports on every request to that route,
// and this plugin is part of every route. The account loaders ask the core for the account
// (passkeys, devices, linked accounts) and the second factor: exported here they would cost
// every page those reads. So they are handed over in an object (not a loader, so not run here),
// and the pages that show them export them (routes/account/index.tsx, …/two-factor/index.tsx).
export const accountLoaders = {
  useAccount: auth.useAccount,
  useTwoFactorStatus: twoFactor.useTwoFactorStatus,
  useOrganizations: organizations.useOrganizations,
}
