/**
 * The browser half of passkeys, for `onClick$` handlers: register a passkey (signed in, or for
 * a new account by email) and sign in with one. Passkeys need JavaScript: this runs in the
 * browser only.
 *
 * `@simplewebauthn/browser` is imported lazily, from the app's own bundle (never a CDN), so
 * pages that do not use passkeys do not load it. CSRF protection stays on: the callback POST
 * carries the token of `GET <basePath>/csrf` (and the browser's `Sec-Fetch-Site`). On success
 * (and on a refusal the server answers with a page) the browser navigates; a failure before
 * that (cancelled, unsupported, options refused) is returned for the UI to show.
 *
 * ```tsx
 * <button onClick$={() => signInWithPasskey({ redirectTo: "/protected/" })}>Sign in with a passkey</button>
 * ```
 */

export interface PasskeyOptions {
  /** The passkey provider's id. Default `"passkey"`. */
  provider?: string
  /** Where the auth endpoints live (`basePath` of the config). Default `"/auth"`. */
  basePath?: string
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string
  /** `registerPasskey` while signed out: the email of the new account. */
  email?: string
  /**
   * `signInWithPasskey`: offer passkeys in the autofill of an input with
   * `autocomplete="username webauthn"` instead of a dialog (conditional UI). Call it on page
   * load; it settles when the user picks a passkey. Pass `signal` to stop it.
   */
  conditional?: boolean
  signal?: AbortSignal
}

/** Why a ceremony ended without navigating. `type` is a server error type or a DOMException name. */
export interface PasskeyFailure {
  ok: false
  error: { type: string; message: string }
  /**
   * Where to sign in again, when the server asks for it: adding a passkey while signed in needs
   * a recent sign-in, with the second factor when two-factor is on (`ReauthenticationRequired`).
   */
  signInUrl?: string
}

type Action = "register" | "authenticate"

const CANCELLED = "The passkey request was cancelled or timed out. Try again."

/** Sign in with a passkey (discoverable: no email needed). */
export function signInWithPasskey(
  options: PasskeyOptions = {},
): Promise<PasskeyFailure | undefined> {
  return ceremony("authenticate", options)
}

/** Create a passkey: for the signed-in user, or with `email` for a new account. */
export function registerPasskey(options: PasskeyOptions = {}): Promise<PasskeyFailure | undefined> {
  return ceremony("register", options)
}

function failure(type: string, message: string, signInUrl?: string): PasskeyFailure {
  return { ok: false, error: { type, message }, ...(signInUrl ? { signInUrl } : {}) }
}

async function ceremony(
  action: Action,
  options: PasskeyOptions,
): Promise<PasskeyFailure | undefined> {
  const base = (options.basePath ?? "/auth").replace(/\/+$/, "")
  const provider = encodeURIComponent(options.provider ?? "passkey")
  try {
    const browser = await import("@simplewebauthn/browser")
    if (!browser.browserSupportsWebAuthn()) {
      return failure("Unsupported", "This browser does not support passkeys.")
    }
    const query = new URLSearchParams({ action })
    if (options.email) query.set("email", options.email)
    const answer = await getJson(`${base}/webauthn-options/${provider}?${query}`, options.signal)
    if (!answer.ok) return failure(answer.type, answer.message, answer.url)
    const optionsJSON = (answer.body as { options: never }).options
    const credential =
      action === "register"
        ? await browser.startRegistration({ optionsJSON })
        : await browser.startAuthentication({
            optionsJSON,
            useBrowserAutofill: options.conditional === true,
          })
    const csrf = await getJson(`${base}/csrf`, options.signal)
    const body = new URLSearchParams({
      action,
      data: JSON.stringify(credential),
      callbackUrl: options.redirectTo ?? location.href,
      csrfToken: csrf.ok ? String((csrf.body as { csrfToken?: unknown }).csrfToken ?? "") : "",
    })
    const res = await fetch(`${base}/callback/${provider}`, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Auth-Return-Redirect": "1",
      },
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    })
    const result = (await res.json()) as { url?: string; error?: { type: string; message: string } }
    if (res.ok && typeof result.url === "string") {
      location.assign(result.url)
      return undefined
    }
    return failure(
      result.error?.type ?? "Error",
      result.error?.message ?? "Passkey sign-in failed.",
    )
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error"
    if (name === "AbortError") return failure(name, "Stopped.")
    if (name === "NotAllowedError") return failure(name, CANCELLED)
    return failure(name, error instanceof Error ? error.message : "Passkey sign-in failed.")
  }
}

async function getJson(
  url: string,
  signal: AbortSignal | undefined,
): Promise<
  { ok: true; body: unknown } | { ok: false; type: string; message: string; url?: string }
> {
  const res = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    ...(signal ? { signal } : {}),
  })
  const body = (await res.json().catch(() => null)) as {
    error?: { type?: string; message?: string }
    url?: unknown
  } | null
  if (res.ok) return { ok: true, body }
  return {
    ok: false,
    type: body?.error?.type ?? `HTTP${res.status}`,
    message: body?.error?.message ?? "Passkeys are not available right now.",
    // The server's sign-in page (same origin), never a URL from elsewhere.
    ...(typeof body?.url === "string" && sameOrigin(body.url) ? { url: body.url } : {}),
  }
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, location.href).origin === location.origin
  } catch {
    return false
  }
}
