/** How the built-in pages look and which of the app's own pages replace them. */

/** Built-in page theme. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
}

/** Paths of the app's own pages that replace the built-in ones. */
export interface PagesOptions {
  signIn?: string
  signOut?: string
  error?: string
  verifyRequest?: string
  /** Where a user goes after their first sign-in (no built-in page). */
  newUser?: string
  /** Latchkey: the second-factor code page (default: the built-in `{basePath}/two-factor`). */
  twoFactor?: string
  /** Latchkey, `Password` provider: the sign-up page (default `{basePath}/password/signup`). */
  signUp?: string
  /** Latchkey, `Password` provider: the "forgot password" page (default `{basePath}/password/forgot`). */
  forgotPassword?: string
  /**
   * Latchkey, `Password` provider: the page a reset link opens, with `token`, `uid` and `email`
   * in its query (default `{basePath}/password/reset`). It posts them with the new password to
   * `{basePath}/password/reset` (or calls `useResetPassword`).
   */
  resetPassword?: string
  /** Latchkey, `Password` provider: the page "check your email" (default `{basePath}/password/sent`). */
  passwordSent?: string
}
