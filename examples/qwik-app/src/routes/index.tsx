import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Link } from "@builder.io/qwik-city"
import { useSession } from "./plugin@auth"

export default component$(() => {
  const session = useSession()
  const s = session.value
  return (
    <section class="card">
      {s?.user ? (
        <>
          <p class="eyebrow">Signed in</p>
          <h1 data-testid="greeting">Hello, {s.nickname || s.user.name || s.user.email}</h1>
          <dl class="facts">
            <dt>Name</dt>
            <dd data-testid="session-name">{s.user.name}</dd>
            <dt>Email</dt>
            <dd data-testid="session-email">{s.user.email}</dd>
            <dt>Nickname</dt>
            <dd data-testid="session-nickname">{s.nickname}</dd>
            <dt>Expires</dt>
            <dd>{new Date(s.expires).toUTCString()}</dd>
          </dl>
          <details>
            <summary>Raw session</summary>
            <pre>{JSON.stringify(s, null, 2)}</pre>
          </details>
        </>
      ) : (
        <>
          <p class="eyebrow">Signed out</p>
          <h1 data-testid="greeting">Welcome to the Latchkey demo</h1>
          <p>
            Sign in with the demo account <code>demo@example.com</code> / <code>latchkey-demo</code>
            , or create your own account.
          </p>
          <p class="actions">
            <Link href="/signin/" class="button">
              Sign in
            </Link>
            <Link href="/signup/" class="button ghost">
              Create an account
            </Link>
          </p>
        </>
      )}
    </section>
  )
})

export const head: DocumentHead = { title: "Home" }
