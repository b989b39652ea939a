/** The default session cookie name; with secure cookies browsers require the `__Secure-` prefix. */
export function sessionCookieName(secure: boolean): string {
  return secure ? "__Secure-authjs.session-token" : "authjs.session-token"
}
