/**
 * The OAuth 2 / OpenID Connect flow, as the core's `signin/<id>` and `callback/<id>` actions
 * call it. Internal (not a package export).
 */
export {
  type AccountLinkingInput,
  type AccountLinkingOutcome,
  decideAccountLinking,
} from "../../kernel/sign-in/account-linking.js"
export {
  type AuthorizationRequest,
  createAuthorizationRequest,
  PROTECTED_PARAMS,
} from "./authorization-url.js"
export {
  callbackParams,
  handleOAuthCallback,
  type OAuthCallbackInput,
  type OAuthCallbackResult,
} from "./callback.js"
export { checkCookieDeletions } from "./checks.js"
export type { OAuthFlowContext } from "./context.js"
export { clearDiscoveryCache } from "./discovery.js"
export { isOAuthProvider, oauthFlowContext } from "./flow-context.js"
export { resolveOAuthProvider } from "./provider.js"
export { planRedirect, proxyForwardUrl } from "./redirect-proxy.js"
