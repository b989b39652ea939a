/**
 * The account's state stamp (docs/design/pending-grants.md): the user's session version, read
 * where revocation state is kept. Every grant is bound to it when minted and compared with it
 * when used; `moveAccountState` (kernel/grants) raises it.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { revocationBackend } from "./index.js"
import { asStoreError } from "./store-error.js"

export { asStoreError }

/**
 * The account's stamp now (0 until it first moves). A backend that cannot answer throws a
 * `StoreError`: a grant is never minted or honoured without knowing the state.
 */
export async function accountStamp(config: ResolvedConfig, userId: string): Promise<number> {
  try {
    return await revocationBackend(config).userVersion(userId)
  } catch (cause) {
    throw asStoreError(cause)
  }
}
