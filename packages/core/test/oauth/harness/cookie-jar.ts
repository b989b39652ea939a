/** A cookie jar just good enough for following redirects on one loopback host. */
export class CookieJar {
  readonly #cookies = new Map<string, string>()

  /** Store the `Set-Cookie` headers of a response (deletions remove). */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      const expired = attributes.some((a) => {
        const [k, v] = a.trim().split("=")
        if (k?.toLowerCase() === "max-age") return Number(v) <= 0
        if (k?.toLowerCase() === "expires") return Date.parse(v ?? "") <= Date.now()
        return false
      })
      if (expired || value === "") this.#cookies.delete(name)
      else this.#cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
}
