import { routeLoader$ } from "@builder.io/qwik-city"

// The page with a session in it but no auth: a `routeLoader$` returning a new session object of
// the shape Latchkey returns whenever a session cookie is present. Against "none" it measures
// what Qwik itself charges for a loader and for serialising its value into the page, which any
// binding that hands the session to the page through a loader pays.
export const useSession = routeLoader$((event) =>
  event.request.headers.get("cookie")?.includes("authjs.session-token")
    ? {
        user: { name: "Ada Lovelace", email: "ada@example.com", image: null },
        expires: "2099-01-01T00:00:00.000Z",
      }
    : null,
)
