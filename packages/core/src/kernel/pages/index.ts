/**
 * The kernel's built-in pages (each feature keeps its own beside it, on the same layout): pure
 * functions from props to `{ status, html }`. They ship no client
 * JavaScript and load nothing from other origins; every interpolated value goes through
 * `escape.ts`, and URLs and colours are allow-listed before they reach an attribute or the
 * style block.
 */

export { type ErrorPageProps, renderErrorPage } from "./error.js"
export { escapeHtml } from "./escape.js"
export type { PageResponse, PageTheme } from "./layout.js"
export { type PageProvider, renderSignInPage, type SignInPageProps } from "./sign-in.js"
export { renderSignOutPage, type SignOutPageProps } from "./sign-out.js"
export { renderVerifyRequestPage, type VerifyRequestPageProps } from "./verify-request.js"
