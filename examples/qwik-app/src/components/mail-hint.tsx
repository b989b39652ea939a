/** "Check your email", with a link to the dev mailbox when that is where the mail went. */
import { component$ } from "@builder.io/qwik"
import { Link } from "@builder.io/qwik-city"
import type { MailDelivery } from "~/lib/mail-delivery"

export const MailHint = component$((props: { delivery: MailDelivery }) => {
  if (props.delivery !== "mailbox") return null
  return (
    <p class="demo-box">
      This demo sends no mail: it is in the dev mailbox.
      <br />
      <Link href="/dev/mailbox/" class="button wide" data-testid="open-mailbox">
        Open the dev mailbox
      </Link>
    </p>
  )
})
