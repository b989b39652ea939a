/**
 * A browser with JavaScript off, as plain HTTP: it loads pages, submits their `<form>`s the way
 * a browser does (urlencoded POST to the form's action, with the page's Origin) and keeps the
 * cookies the server sets. Redirects are not followed, so tests see each answer.
 */
export interface FormAnswer {
  status: number
  /** The redirect target, resolved against the app's URL. */
  location: URL | null
  /** The raw Set-Cookie headers of this answer. */
  setCookies: string[]
}

export class FormClient {
  readonly #base: string
  readonly #jar = new Map<string, string>()

  constructor(base: string) {
    this.#base = base
  }

  cookie(name: string): string | undefined {
    return this.#jar.get(name)
  }

  /** GET `path`; resolves to the page's HTML without Qwik's comment markers. */
  async page(path: string): Promise<string> {
    const response = await fetch(new URL(path, this.#base), {
      headers: { cookie: this.#cookieHeader() },
      redirect: "manual",
    })
    this.#keep(response)
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`)
    return (await response.text()).replace(/<!--[^>]*-->/g, "")
  }

  /**
   * Submit the first form of `html` with what the user typed in `fields`; the form's own
   * `value`s (hidden inputs) go along, as a browser sends them.
   */
  async submit(html: string, fields: Record<string, string> = {}): Promise<FormAnswer> {
    const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html)
    if (!form) throw new Error("no form on the page")
    const values: Record<string, string> = {}
    for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/g)) {
      const name = /\bname="([^"]*)"/.exec(input)?.[1]
      const value = /\bvalue="([^"]*)"/.exec(input)?.[1]
      if (name !== undefined && value !== undefined) values[name] = decodeEntities(value)
    }
    const target = decodeEntities(form[1]!)
    const response = await fetch(new URL(target, `${this.#base}/`), {
      method: "POST",
      headers: {
        origin: new URL(this.#base).origin,
        "content-type": "application/x-www-form-urlencoded",
        cookie: this.#cookieHeader(),
      },
      body: new URLSearchParams({ ...values, ...fields }),
      redirect: "manual",
    })
    this.#keep(response)
    await response.arrayBuffer()
    const location = response.headers.get("location")
    return {
      status: response.status,
      location: location === null ? null : new URL(location, this.#base),
      setCookies: response.headers.getSetCookie(),
    }
  }

  #cookieHeader(): string {
    return [...this.#jar].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  #keep(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";")
      const name = pair.slice(0, pair.indexOf("=")).trim()
      const value = pair.slice(pair.indexOf("=") + 1)
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired || value === "") this.#jar.delete(name)
      else this.#jar.set(name, value)
    }
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
}
