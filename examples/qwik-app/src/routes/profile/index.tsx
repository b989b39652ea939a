import type { RequestHandler } from "@builder.io/qwik-city"

/** The profile page became the account page: old links and bookmarks still arrive. */
export const onGet: RequestHandler = ({ redirect }) => {
  throw redirect(301, "/account/")
}
