/** `GET /webauthn-options/<provider>`: see `features/passkey/options.ts`. */
export { webauthnOptionsAction } from "./options.js"
