/** A form POST to an auth endpoint the way a browser sends it: CSRF token, cookie, Origin. */
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN } from "../auth/helpers.js"

export async function postForm(
  config: AuthConfig,
  path: string,
  fields: Record<string, string>,
  ip = "192.0.2.1",
): Promise<Response> {
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")
  return Auth(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie,
        origin: ORIGIN,
        "x-forwarded-for": ip,
      },
      body: new URLSearchParams({ ...fields, csrfToken }).toString(),
    }),
    config,
  )
}
