import { routeAuth$, twoFactorActions } from "@latchkey/qwik"
import { authConfig } from "~/auth"

export const {
  onRequest,
  useSession,
  useSignIn,
  useSignOut,
  useUpdateSession,
  useAccount,
  useRenamePasskey,
  useDeletePasskey,
  useRevokeSession,
  useRevokeOtherSessions,
  useUnlinkAccount,
} = routeAuth$(() => authConfig)

// Two-factor sign-in (the /account/two-factor/ page): status, enroll, confirm, disable,
// regenerate recovery codes, and the code of a pending sign-in.
export const {
  useTwoFactorStatus,
  useEnrollTwoFactor,
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
  useVerifyTwoFactor,
} = twoFactorActions()
