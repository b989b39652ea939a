/** A browser's cookie jar for the app's origin, fed by `Set-Cookie` headers or cookie objects. */
import type { ResponseCookie } from "../../../src/types.js"
import { APP_ORIGIN } from "./oidc-server.js"

export class Browser {
  readonly cookies = new Map<string, string>()
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(/;\s*/)
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at)
      const value = decodeURIComponent(pair!.slice(at + 1))
      if (value === "" || attrs.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  apply(cookies: readonly ResponseCookie[]) {
    for (const c of cookies) {
      if (c.value === "" || c.options.maxAge === 0) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
  }
  request(path = "/api") {
    return new Request(`${APP_ORIGIN}${path}`, { headers: { cookie: this.header() } })
  }
}
