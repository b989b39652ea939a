import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Link, routeLoader$, useLocation } from "@builder.io/qwik-city"
import { MailHint } from "~/components/mail-hint"
import { mailDelivery } from "~/lib/mail-delivery"

/**
 * `pages.verifyRequest`: where the core sends people after they asked for a sign-in link, and
 * `pages.passwordSent` (`?password=1`): after a sign-up, resend or forgot posted to the core
 * directly (the demo's own forms answer in place).
 */
export const useDelivery = routeLoader$(() => mailDelivery())

export default component$(() => {
  const delivery = useDelivery()
  const password = useLocation().url.searchParams.get("password") === "1"
  return (
    <section class="card narrow">
      <p class="eyebrow">{password ? "Your account" : "Email link"}</p>
      <h1 data-testid="verify-request-title">Check your email</h1>
      <p>
        {password
          ? "If the address can get one, a link is on its way."
          : "A sign-in link is on its way. It works once, for 10 minutes."}
      </p>
      <MailHint delivery={delivery.value} />
      <p class="hint">
        <Link href="/signin/">Back to sign in</Link>
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Check your email" }
