import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, type RequestHandler } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/qwik"
import { useSession, useUpdateSession } from "../plugin@auth"

export const onRequest: RequestHandler = ({ sharedMap, url, redirect }) => {
  if (!(sharedMap.get("@latchkey/session") as Session | null)) {
    throw redirect(302, `/signin/?callbackUrl=${encodeURIComponent(url.pathname)}`)
  }
}

export default component$(() => {
  const session = useSession()
  const update = useUpdateSession()
  return (
    <section class="card narrow">
      <p class="eyebrow">Session update</p>
      <h1>Your nickname</h1>
      <p>
        The nickname is a custom field of the session. This demo keeps database sessions: the cookie
        holds only an opaque token, and the session is a row in PGlite. Saving posts the form to the
        session <code>update</code> trigger, so the <code>session</code> callback receives{" "}
        <code>trigger: "update"</code> with the new nickname, stores it with your user, and returns
        it on every session read. The cookie itself does not change.
      </p>
      <p>
        Current nickname: <strong data-testid="current-nickname">{session.value?.nickname}</strong>
      </p>
      <Form action={update} class="stack">
        <label>
          New nickname
          <input
            name="data.nickname"
            required
            maxLength={40}
            value={session.value?.nickname ?? ""}
          />
        </label>
        <button type="submit" class="button" data-testid="save-nickname">
          Save
        </button>
        {update.value?.session && (
          <p class="notice success" data-testid="saved">
            Saved.
          </p>
        )}
        {update.value?.failed && (
          <p class="notice error">Please enter a nickname of at most 40 characters.</p>
        )}
      </Form>
    </section>
  )
})

export const head: DocumentHead = { title: "Profile" }
