import { component$, Slot } from "@builder.io/qwik"
import { type RequestHandler, routeLoader$ } from "@builder.io/qwik-city"
import { Header } from "~/components/header"

/** Pages show per-user data: never let a shared cache keep them. */
export const onGet: RequestHandler = ({ cacheControl }) => {
  cacheControl({ noStore: true, private: true })
}

/** Which session strategy the demo runs with (`LATCHKEY_DEMO_SESSIONS`, see `auth.ts`). */
export const useSessionStrategy = routeLoader$(() =>
  process.env.LATCHKEY_DEMO_SESSIONS === "jwt" ? "JWT sessions" : "database sessions",
)

export default component$(() => {
  const strategy = useSessionStrategy()
  return (
    <>
      <Header />
      <main class="container">
        <Slot />
      </main>
      <footer class="footer">
        Latchkey demo · {strategy.value}, data in embedded PGlite, behind an <code>HttpOnly</code>{" "}
        cookie · <a href="/auth/session">/auth/session</a>
      </footer>
    </>
  )
})
