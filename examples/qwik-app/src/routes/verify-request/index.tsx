import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city"
import { devMailboxEnabled } from "~/lib/dev-mailbox"

/** `pages.verifyRequest`: where the core sends people after they asked for a sign-in link. */
export const useMailboxEnabled = routeLoader$(() => devMailboxEnabled())

export default component$(() => {
  const mailbox = useMailboxEnabled()
  return (
    <section class="card narrow">
      <p class="eyebrow">Email link</p>
      <h1 data-testid="verify-request-title">Check your email</h1>
      <p>A sign-in link is on its way. It works once, for 10 minutes.</p>
      {mailbox.value && (
        <p class="demo-box">
          This demo sends no mail: the link is in the dev mailbox.
          <br />
          <Link href="/dev/mailbox/" class="button wide" data-testid="open-mailbox">
            Open the dev mailbox
          </Link>
        </p>
      )}
      <p class="hint">
        <Link href="/signin/">Back to sign in</Link>
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Check your email" }
