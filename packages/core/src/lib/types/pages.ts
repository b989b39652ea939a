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
}
