import { component$, Slot } from "@builder.io/qwik"
import type { RequestHandler } from "@builder.io/qwik-city"
import { Header } from "~/components/header"

/** Pages show per-user data: never let a shared cache keep them. */
export const onGet: RequestHandler = ({ cacheControl }) => {
  cacheControl({ noStore: true, private: true })
}

export default component$(() => (
  <>
    <Header />
    <main class="container">
      <Slot />
    </main>
    <footer class="footer">
      Latchkey demo · database sessions in embedded PGlite, behind an <code>HttpOnly</code> cookie ·{" "}
      <a href="/auth/session">/auth/session</a>
    </footer>
  </>
))
