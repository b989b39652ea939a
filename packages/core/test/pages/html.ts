import { PASSKEY_SCRIPT } from "../../src/features/passkey/script.js"
/**
 * A small, tolerant HTML reader for the page tests (no DOM dependency). It reads what a browser
 * would see as tags and attributes, and marks anything it cannot account for, so an injected
 * quote or tag shows up as a difference rather than being silently skipped.
 */

export interface Tag {
  name: string
  closing: boolean
  attrs: Map<string, string>
  /** Characters inside the tag that are not well-formed attributes: should always be empty. */
  garbage: string
}

const rawTextElements = new Set(["style", "title", "script", "textarea"])

/** Tags in document order, plus the text between them (raw-text element content excluded). */
export function tokenize(html: string): { tags: Tag[]; text: string[]; rawText: string[] } {
  const tags: Tag[] = []
  const text: string[] = []
  const rawText: string[] = []
  const tagPattern = /<!DOCTYPE[^>]*>|<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/gy
  let i = 0
  while (i < html.length) {
    const next = html.indexOf("<", i)
    const end = next === -1 ? html.length : next
    if (end > i) text.push(html.slice(i, end))
    if (next === -1) break
    tagPattern.lastIndex = next
    const m = tagPattern.exec(html)
    if (m === null) {
      // A "<" that starts no tag: keep it as text so callers can see it.
      text.push("<")
      i = next + 1
      continue
    }
    i = tagPattern.lastIndex
    if (m[2] === undefined) continue
    const tag: Tag = { name: m[2].toLowerCase(), closing: m[1] === "/", ...parseAttrs(m[3] ?? "") }
    tags.push(tag)
    if (!tag.closing && rawTextElements.has(tag.name)) {
      const close = html.toLowerCase().indexOf(`</${tag.name}`, i)
      const stop = close === -1 ? html.length : close
      rawText.push(html.slice(i, stop))
      i = stop
    }
  }
  return { tags, text, rawText }
}

function parseAttrs(source: string): { attrs: Map<string, string>; garbage: string } {
  const attrs = new Map<string, string>()
  const attrPattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
  const garbage = source
    .replace(attrPattern, (_all, name: string, dq?: string, sq?: string, bare?: string) => {
      attrs.set(name.toLowerCase(), decodeEntities(dq ?? sq ?? bare ?? ""))
      return ""
    })
    .replace(/[\s/]/g, "")
  return { attrs, garbage }
}

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }

/** Decodes the entities a browser would, enough for text and attribute values in these pages. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, ref: string) => {
    if (ref[0] === "#") {
      const code =
        ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return String.fromCodePoint(code)
    }
    return named[ref.toLowerCase()] ?? all
  })
}

/** The structure of a document: tag names and attribute names, without values. */
export function shape(html: string): string[] {
  return tokenize(html).tags.map(
    (t) => `${t.closing ? "/" : ""}${t.name}(${[...t.attrs.keys()].sort().join(",")})${t.garbage}`,
  )
}

export interface Form {
  action: string | undefined
  method: string | undefined
  inputs: Tag[]
  labels: { for: string | undefined; text: string }[]
  buttons: string[]
}

/** Every `<form>` with its inputs, labels and button texts. */
export function forms(html: string): Form[] {
  const out: Form[] = []
  for (const match of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)) {
    const { tags } = tokenize(match[0])
    const form = tags[0]!
    out.push({
      action: form.attrs.get("action"),
      method: form.attrs.get("method"),
      inputs: tags.filter((t) => t.name === "input"),
      labels: [...match[0].matchAll(/<label([^>]*)>([\s\S]*?)<\/label>/g)].map((l) => ({
        for: parseAttrs(l[1] ?? "").attrs.get("for"),
        text: decodeEntities(l[2] ?? ""),
      })),
      buttons: [...match[0].matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((b) =>
        textOf(b[1] ?? ""),
      ),
    })
  }
  return out
}

const inlineTags = /^<\/?(?:a|strong|span|code|img)\b/i

/** Visible text of an HTML fragment, entities decoded, whitespace collapsed. */
export function textOf(fragment: string): string {
  const visible = fragment
    .replace(/<(style|title)\b[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, (tag) => (inlineTags.test(tag) ? "" : " "))
  return decodeEntities(visible).replace(/\s+/g, " ").trim()
}

/** Value of a hidden input by name in a form, or undefined. */
export function hidden(form: Form, name: string): string | undefined {
  return form.inputs
    .find((i) => i.attrs.get("type") === "hidden" && i.attrs.get("name") === name)
    ?.attrs.get("value")
}

export function styleOf(html: string): string {
  return tokenize(html).rawText.join("\n")
}

const allowedTags = new Set(
  "html head meta title style body main div h1 p form input label button img span a strong code noscript".split(
    " ",
  ),
)

/**
 * Throws if the document contains anything an attacker could use: an unexpected tag, an event
 * handler, an unparseable attribute, a dangerous URL, or a style block that could be left.
 */
export function assertInert(html: string): void {
  // Our own passkey script, byte for byte, is the one script a page may carry (CSP hash).
  const { tags, text, rawText } = tokenize(
    html.replaceAll(`<script>${PASSKEY_SCRIPT}</script>`, ""),
  )
  const fail = (why: string): never => {
    throw new Error(`${why}\n---\n${html}`)
  }
  for (const tag of tags) {
    if (!allowedTags.has(tag.name)) fail(`unexpected tag <${tag.name}>`)
    if (tag.garbage !== "") fail(`malformed attributes in <${tag.name}>: ${tag.garbage}`)
    for (const [name, value] of tag.attrs) {
      if (name.startsWith("on")) fail(`event handler ${name}`)
      if (name === "style" || name === "formaction" || name === "srcdoc") fail(`attribute ${name}`)
      if (name === "href" || name === "action" || name === "src") {
        // Browsers strip these before reading the scheme.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: mirrors the browser's stripping
        const url = value.replace(/[\u0000-\u0020]/g, "").toLowerCase()
        const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1]
        const ok =
          scheme === undefined ||
          scheme === "http" ||
          scheme === "https" ||
          (name === "src" && url.startsWith("data:image/"))
        if (!ok) fail(`dangerous ${name}: ${value}`)
      }
    }
  }
  for (const chunk of text) {
    if (/[<>]/.test(chunk)) fail(`raw < or > in text: ${chunk}`)
  }
  for (const chunk of rawText) {
    if (chunk.includes("<")) fail(`"<" inside a raw-text element: ${chunk}`)
    if (/url\(|expression|@import|javascript/i.test(chunk)) fail(`dangerous CSS: ${chunk}`)
  }
}
