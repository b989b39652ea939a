/**
 * Marker that turns the built-in CSRF check off. Only a framework binding with its own CSRF
 * protection should pass it as `skipCSRFCheck`; with it, `GET /auth/csrf` answers 404.
 */
export const skipCSRFCheck: unique symbol = Symbol("latchkey.skipCSRFCheck")
