/**
 * The reset link's page (`pages.resetPassword`): the link's `token`, `uid` and `email` ride in
 * hidden fields; only the POST of `useResetPassword` consumes the link (a mail scanner's GET of
 * this page consumes nothing). The reset ends every session of the account and signs this
 * browser in.
 */
import { component$ } from "@builder.io/qwik"
import {
  type DocumentHead,
  Form,
  Link,
  type RequestHandler,
  useLocation,
} from "@builder.io/qwik-city"
import { NewPassword } from "~/components/new-password"
import { useResetPassword } from "../plugin@auth"

// The token is in the URL: no other origin may see it in a Referer. ("no-referrer" would also
// make the browser send `Origin: null` with the form post, which Qwik City's CSRF check refuses.)
export const onRequest: RequestHandler = ({ headers }) => {
  headers.set("Referrer-Policy", "same-origin")
  headers.set("Cache-Control", "no-store")
}

export default component$(() => {
  const reset = useResetPassword()
  const loc = useLocation()
  const value = reset.value
  const params = loc.url.searchParams
  if (value && !value.failed) {
    return (
      <section class="card narrow">
        <p class="eyebrow">Password reset</p>
        <h1 data-testid="reset-done">Your password is changed</h1>
        <p>Every other device was signed out. This browser is signed in.</p>
        <p class="hint">
          <Link href="/account/">Go to your account</Link>
        </p>
      </section>
    )
  }
  const email = params.get("email") ?? ""
  return (
    <section class="card narrow">
      <p class="eyebrow">Password reset</p>
      <h1>Choose a new password</h1>
      <p>
        For <strong data-testid="reset-email">{email}</strong>
      </p>
      {value?.failed && (
        <p class="notice error" role="alert" data-testid="reset-error">
          {value.formErrors?.[0] ?? "That did not work. Please try again."}{" "}
          {value.error?.type === "Verification" && <Link href="/forgot/">Ask for a new link</Link>}
        </p>
      )}
      <Form action={reset} class="stack">
        <input type="hidden" name="token" value={params.get("token") ?? ""} />
        <input type="hidden" name="uid" value={params.get("uid") ?? ""} />
        <input type="hidden" name="email" value={email} />
        <NewPassword />
        <button type="submit" class="button" data-testid="reset-submit">
          Set password and sign in
        </button>
      </Form>
      <p class="hint">Every device signed in to this account will be signed out.</p>
    </section>
  )
})

export const head: DocumentHead = { title: "Choose a new password" }
