/**
 * Email (magic link) sign-in as functions the core's actions call; each returns data, never a
 * `Response`. Edge-portable: WebCrypto only, no nodemailer.
 */

export { MAX_EMAIL_LENGTH, normalizeIdentifier } from "../../kernel/address.js"
export {
  DEFAULT_EMAIL_MAX_AGE,
  generateVerificationToken,
  hashVerificationToken,
} from "../../kernel/grants/link-token.js"
export {
  type EmailConfirmation,
  type EmailConfirmationParams,
  renderEmailConfirmation,
} from "./confirm.js"
export { type SignInMessage, signInMessage } from "./message.js"
export {
  callbackLink,
  type RequestEmailSignInParams,
  type RequestEmailSignInResult,
  requestEmailSignIn,
} from "./request.js"
export {
  MAX_TOKEN_LENGTH,
  type VerifyEmailSignInParams,
  type VerifyEmailSignInResult,
  verifyEmailSignIn,
} from "./verify.js"
