/**
 * `@simplewebauthn/server`, loaded on the first ceremony rather than at start-up: with its
 * ASN.1 and X.509 stack (attestation parsing) it is most of a passkey app's code (~250 KB), and
 * an app whose users have not touched a passkey since the isolate started needs none of it.
 */
type SimpleWebAuthn = typeof import("@simplewebauthn/server")

let loading: Promise<SimpleWebAuthn> | undefined

export function simpleWebAuthn(): Promise<SimpleWebAuthn> {
  loading ??= import("@simplewebauthn/server").catch((error: unknown) => {
    // A failed load (an isolate short of memory, say) is tried again on the next ceremony.
    loading = undefined
    throw error
  })
  return loading
}
