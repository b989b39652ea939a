/**
 * Sign-up through `@latchkey/qwik`'s `useSignUp` (the core's `Password` provider): the account
 * is created with an unproven address and the confirmation link is mailed. An address that
 * already has an account gets the same answer here (its owner gets a notice mail instead), so
 * the page tells nobody which addresses are registered.
 */
import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, Link, routeLoader$ } from "@builder.io/qwik-city"
import { MailHint } from "~/components/mail-hint"
import { NewPassword } from "~/components/new-password"
import { mailDelivery } from "~/lib/mail-delivery"
import { useSignUp } from "../plugin@auth"

export const useDelivery = routeLoader$(() => mailDelivery())

export default component$(() => {
  const signUp = useSignUp()
  const delivery = useDelivery()
  const value = signUp.value
  const failure = value?.failed ? value : undefined
  if (value && !value.failed) {
    return (
      <section class="card narrow">
        <p class="eyebrow">Almost there</p>
        {delivery.value === "none" ? (
          <>
            <h1 data-testid="signup-success">Account created</h1>
            <p>This demo cannot send mail, so addresses are not confirmed: sign in now.</p>
          </>
        ) : (
          <>
            <h1 data-testid="signup-success">Check your email</h1>
            <p>
              If the address can be registered, a link to confirm it is on its way. Open it, then
              sign in with your new password.
            </p>
          </>
        )}
        <MailHint delivery={delivery.value} />
        <p class="hint">
          <Link href="/signin/">Go to sign in</Link>
        </p>
      </section>
    )
  }
  const fieldErrors = failure?.fieldErrors as Record<string, string[] | undefined> | undefined
  return (
    <section class="card narrow">
      <p class="eyebrow">New here?</p>
      <h1>Create an account</h1>
      {failure?.formErrors?.[0] && (
        <p class="notice error" role="alert" data-testid="signup-error">
          {failure.formErrors[0]}
        </p>
      )}
      <Form action={signUp} class="stack">
        <label>
          Name
          <input name="name" autoComplete="name" maxLength={80} />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
          {fieldErrors?.email && <span class="field-error">{fieldErrors.email}</span>}
        </label>
        <NewPassword label="Password">
          {fieldErrors?.password && <span class="field-error">{fieldErrors.password}</span>}
        </NewPassword>
        <button type="submit" class="button" data-testid="sign-up-submit">
          Create account
        </button>
      </Form>
      <p class="hint">
        Already registered? <Link href="/signin/">Sign in</Link>
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Create an account" }
