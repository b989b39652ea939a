import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, Link, routeAction$, z, zod$ } from "@builder.io/qwik-city"
import { createUser } from "~/lib/users"

export const useSignUp = routeAction$(
  async ({ name, email, password }, { fail, redirect }) => {
    const result = await createUser({ name, email, password })
    if (!result.ok) return fail(409, { message: "An account with this email already exists." })
    throw redirect(303, `/signin/?created=1&email=${encodeURIComponent(result.user.email)}`)
  },
  zod$({
    name: z.string().trim().min(1, "Enter your name").max(80),
    email: z.string().trim().email("Enter a valid email address").max(254),
    // OWASP ASVS: at least 8 characters, long passphrases allowed, no composition rules.
    password: z.string().min(8, "Use at least 8 characters").max(128),
  }),
)

export default component$(() => {
  const signUp = useSignUp()
  const errors = signUp.value?.failed ? signUp.value : undefined
  return (
    <section class="card narrow">
      <p class="eyebrow">New here?</p>
      <h1>Create an account</h1>
      {errors?.message && (
        <p class="notice error" role="alert">
          {errors.message}
        </p>
      )}
      <Form action={signUp} class="stack">
        <label>
          Name
          <input name="name" autoComplete="name" required maxLength={80} />
          {errors?.fieldErrors?.name && <span class="field-error">{errors.fieldErrors.name}</span>}
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
          {errors?.fieldErrors?.email && (
            <span class="field-error">{errors.fieldErrors.email}</span>
          )}
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
          />
          {errors?.fieldErrors?.password && (
            <span class="field-error">{errors.fieldErrors.password}</span>
          )}
        </label>
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
