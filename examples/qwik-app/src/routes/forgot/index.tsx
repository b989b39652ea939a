/**
 * "Forgot password" through `useForgotPassword`: the same answer whether or not the address has
 * an account; the reset link (to /reset/) is mailed only when it has one.
 */
import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, Link, routeLoader$, useLocation } from "@builder.io/qwik-city"
import { MailHint } from "~/components/mail-hint"
import { mailDelivery } from "~/lib/mail-delivery"
import { useForgotPassword } from "../plugin@auth"

export const useDelivery = routeLoader$(() => mailDelivery())

export default component$(() => {
  const forgot = useForgotPassword()
  const delivery = useDelivery()
  const loc = useLocation()
  const value = forgot.value
  if (value && !value.failed) {
    return (
      <section class="card narrow">
        <p class="eyebrow">Password reset</p>
        <h1 data-testid="forgot-sent">Check your email</h1>
        <p>If the address has an account, a link to choose a new password is on its way.</p>
        <MailHint delivery={delivery.value} />
        <p class="hint">
          <Link href="/signin/">Back to sign in</Link>
        </p>
      </section>
    )
  }
  return (
    <section class="card narrow">
      <p class="eyebrow">Password reset</p>
      <h1>Forgot your password?</h1>
      {value?.failed && value.formErrors?.[0] && (
        <p class="notice error" role="alert" data-testid="forgot-error">
          {value.formErrors[0]}
        </p>
      )}
      <Form action={forgot} class="stack">
        <label>
          Email
          <input
            name="email"
            type="email"
            autoComplete="username"
            required
            value={loc.url.searchParams.get("email") ?? ""}
          />
        </label>
        <button type="submit" class="button" data-testid="forgot-submit">
          Email me a reset link
        </button>
      </Form>
      <p class="hint">
        <Link href="/signin/">Back to sign in</Link>
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Forgot password" }
