/** Passkey test support: a software authenticator and an HTTP client for the passkey endpoints. */
export * from "./webauthn-authenticator.js"
export * from "./webauthn-client.js"
