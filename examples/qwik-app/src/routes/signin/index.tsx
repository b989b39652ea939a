import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, Link, routeLoader$, useLocation } from "@builder.io/qwik-city"
import { signInWithPasskey } from "@latchkey/qwik"
import { authConfig } from "~/auth"
import { PasskeyButton } from "~/components/passkey-button"
import { DEMO_EMAIL, DEMO_PASSWORD } from "~/lib/demo-account"
import { useResendVerification, useSignIn } from "../plugin@auth"

/** What the core's `?error=` means for a person. Unknown values get the generic text. */
const errorMessages: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  MissingCSRF: "Your session form expired. Please try again.",
  AccessDenied: "You are not allowed to sign in.",
  RateLimited: "Too many attempts. Wait a moment and try again.",
  OAuthAccountNotLinked:
    "This email already has an account here. Sign in the way you did first (for the demo account: password).",
  OAuthCallbackError: "The identity provider did not sign you in. Please try again.",
  EmailSignInError: "That address cannot get a sign-in link. Check it and try again.",
  WebAuthnVerificationError: "The passkey could not be verified. Please try again.",
  AccountNotLinked: "That passkey belongs to another account.",
  InvalidCheck:
    "That sign-in attempt expired or was already used (a long wait, the Back button, or another browser). Please sign in again.",
}

/** OAuth/OIDC providers configured on the server (none until their `AUTH_*_ID` is set). */
export const useOAuthProviders = routeLoader$(() =>
  authConfig.providers
    .map((p) => (typeof p === "function" ? p() : p))
    .filter((p) => p.type === "oauth" || p.type === "oidc")
    .map((p) => ({ id: p.id, name: p.name })),
)

/** The magic-link provider, if any (the demo's delivers to the dev mailbox). */
export const useEmailProvider = routeLoader$(() => {
  const provider = authConfig.providers
    .map((p) => (typeof p === "function" ? p() : p))
    .find((p) => p.type === "email")
  return provider ? { id: provider.id, name: provider.name } : null
})

/**
 * The right password of an account whose address is not confirmed yet (`?code=email-unverified`;
 * a wrong password of such an account is a plain "wrong email or password"): offer the link
 * again, through `useResendVerification`, which answers the same for every address.
 */
const ResendVerification = component$((props: { email: string }) => {
  const resend = useResendVerification()
  const value = resend.value
  return (
    <div class="notice warning" data-testid="signin-unverified">
      <p>Confirm your email address first: open the link we mailed you when you signed up.</p>
      {value && !value.failed ? (
        <p data-testid="resend-done">If the address needs it, a new link is on its way.</p>
      ) : (
        <Form action={resend} class="inline-form">
          <label>
            Email
            <input
              name="email"
              type="email"
              autoComplete="username"
              required
              value={props.email}
              data-testid="resend-email"
            />
          </label>
          <button type="submit" class="button ghost" data-testid="resend-verification">
            Send the link again
          </button>
        </Form>
      )}
      {value?.failed && <p role="alert">{value.formErrors?.[0]}</p>}
    </div>
  )
})

export default component$(() => {
  const signIn = useSignIn()
  // Without JavaScript the form posts to `?qaction=…`, which drops `code`: its answer must show.
  const resent = useResendVerification().value !== undefined
  const oauth = useOAuthProviders()
  const emailProvider = useEmailProvider()
  const loc = useLocation()
  const error = loc.url.searchParams.get("error")
  const unverified = loc.url.searchParams.get("code") === "email-unverified"
  const callbackUrl = loc.url.searchParams.get("callbackUrl") ?? "/"
  const email = loc.url.searchParams.get("email") ?? ""
  // The account page (and `requireRecentAuth`) send `reauth=1` when a change needs a fresh sign-in.
  const reauth = loc.url.searchParams.get("reauth") === "1"
  return (
    <section class="card narrow">
      <p class="eyebrow">{reauth ? "Confirm it's you" : "Welcome back"}</p>
      <h1>{reauth ? "Sign in again" : "Sign in"}</h1>
      {reauth && (
        <p class="notice warning" data-testid="reauth-notice">
          For your security, this change needs a recent sign-in. Sign in again the way you usually
          do, and you will be taken back.
        </p>
      )}
      {error && !unverified && (
        <p class="notice error" role="alert" data-testid="signin-error">
          {errorMessages[error] ?? "Could not sign you in. Please try again."}
        </p>
      )}
      {(unverified || resent) && <ResendVerification email={email} />}
      <Form action={signIn} class="stack">
        <input type="hidden" name="providerId" value="password" />
        <input type="hidden" name="options.redirectTo" value={callbackUrl} />
        <label>
          Email
          <input name="options.email" type="email" autoComplete="username" required value={email} />
        </label>
        <label>
          Password
          <input name="options.password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" class="button" data-testid="sign-in-submit">
          Sign in
        </button>
      </Form>
      <p class="hint">
        <Link href="/forgot/" data-testid="forgot-link">
          Forgot your password?
        </Link>
      </p>
      <div class="stack passkey">
        <p class="divider">or</p>
        <PasskeyButton
          class="button ghost wide"
          testId="passkey-signin"
          run$={() => signInWithPasskey({ redirectTo: callbackUrl })}
        >
          Sign in with a passkey
        </PasskeyButton>
      </div>
      {emailProvider.value && (
        <div class="stack email">
          <p class="divider">or</p>
          <Form action={signIn} class="stack" data-testid="email-signin">
            <input type="hidden" name="providerId" value={emailProvider.value.id} />
            <input type="hidden" name="options.redirectTo" value={callbackUrl} />
            <label>
              Sign in with an email link
              <input
                name="options.email"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                required
                data-testid="email-link-address"
              />
            </label>
            <button type="submit" class="button ghost wide" data-testid="email-link-submit">
              Email me a sign-in link
            </button>
          </Form>
          <p class="hint">
            The demo sends no mail: links land in the <a href="/dev/mailbox/">dev mailbox</a>.
          </p>
        </div>
      )}
      {oauth.value.length > 0 && (
        <div class="stack oauth">
          <p class="divider">or</p>
          {oauth.value.map((p) => (
            // A full-page POST: the provider's authorization page is on another origin.
            <Form key={p.id} action={signIn} data-testid={`oauth-${p.id}`}>
              <input type="hidden" name="providerId" value={p.id} />
              <input type="hidden" name="options.redirectTo" value={callbackUrl} />
              <button type="submit" class="button ghost wide">
                Continue with {p.name}
              </button>
            </Form>
          ))}
        </div>
      )}
      <p class="demo-box">
        Demo account
        <br />
        <code>{DEMO_EMAIL}</code> / <code>{DEMO_PASSWORD}</code>
      </p>
      <p class="hint">
        No account? <Link href="/signup/">Create one</Link>
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Sign in" }
