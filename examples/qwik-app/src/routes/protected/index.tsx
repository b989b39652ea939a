import { component$ } from "@builder.io/qwik"
import type { DocumentHead, RequestHandler } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/qwik"
import { useSession } from "../plugin@auth"

/** Signed-out visitors go to the sign-in page, which brings them back here afterwards. */
export const onRequest: RequestHandler = ({ sharedMap, url, redirect }) => {
  const session = sharedMap.get("@latchkey/session") as Session | null
  if (!session) {
    throw redirect(302, `/signin/?callbackUrl=${encodeURIComponent(url.pathname + url.search)}`)
  }
}

export default component$(() => {
  const session = useSession()
  return (
    <section class="card">
      <p class="eyebrow">Protected</p>
      <h1 data-testid="protected-title">Members only</h1>
      <p>
        Only signed-in users see this page. You are <strong>{session.value?.user?.email}</strong>.
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Protected" }
