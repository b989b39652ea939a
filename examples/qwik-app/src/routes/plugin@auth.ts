import { routeAuth$ } from "@latchkey/qwik"
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
