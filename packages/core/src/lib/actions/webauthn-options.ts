/** `GET /webauthn-options/<provider>`: see `lib/webauthn/options.ts`. */
export { webauthnOptionsAction } from "../webauthn/options.js"
