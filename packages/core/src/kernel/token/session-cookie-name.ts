/** The session cookie's name as Auth.js writes it: the wire contract both libraries share. */
export const SESSION_COOKIE_NAME = "authjs.session-token"

/** The default session cookie name; with secure cookies browsers require the `__Secure-` prefix. */
export function sessionCookieName(secure: boolean): string {
  return secure ? `__Secure-${SESSION_COOKIE_NAME}` : SESSION_COOKIE_NAME
}
