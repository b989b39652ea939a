#!/usr/bin/env node
// Moves the sections of the full README (the one-file manual of before the site) into the site's
// pages, text unchanged: headings are shifted to the page's levels and links are rewritten for
// the site (an anchor into another section becomes a link to the page that now holds it,
// repository paths become links to the repository). The lead ports README edits made elsewhere
// by running it on the edited full README:
//   node docs/site/scripts/split-readme.mjs <full README.md>   (writes docs/site/pages/…)
//   npx biome check --write docs/site/pages                  (the site's Markdown style)
// A section heading the map below does not know stops the script, so no text is dropped.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const REPO = "https://github.com/latchkey-auth/latchkey/blob/main/"
const pagesDir = fileURLToPath(new URL("../pages/", import.meta.url))

/**
 * Every `##`/`###` heading of the README that starts a piece, in README order: the piece runs to
 * the next heading listed here. `level` is the level the heading gets on its page (1: it becomes
 * the page title); the headings inside the piece move by as much.
 */
export const PIECES = [
  { heading: "# Latchkey", page: "index", level: 1 },
  { heading: "## Two commands", page: "index", level: 2 },
  { heading: "## Five-minute quick start", page: "getting-started", level: 1 },
  { heading: "### Keeping your own users table", page: "guides/credentials", level: 1 },
  { heading: "### Next steps", page: "getting-started", level: 2 },
  { heading: "## Qwik 2", page: "qwik2", level: 1 },
  { heading: "## Where it runs", page: "deploying", level: 1 },
  { heading: "## The token module", page: "token", level: 1 },
  { heading: "## Configuration reference", page: "reference/configuration", level: 1 },
  { heading: "### Log codes", page: "reference/log-codes", level: 1 },
  { heading: "### Build-time warnings", page: "reference/build-warnings", level: 1 },
  { heading: "### Endpoints", page: "reference/configuration", level: 2 },
  { heading: "### Passkeys (WebAuthn)", page: "guides/passkeys", level: 1 },
  { heading: "### Account API", page: "account", level: 2 },
  { heading: "### The account page in Qwik", page: "account", level: 2 },
  { heading: "## Password accounts", page: "guides/password", level: 1 },
  { heading: "## Two-factor sign-in", page: "account", level: 2 },
  { heading: "## Provider access tokens", page: "guides/oauth", level: 2 },
  { heading: "## Several instances", page: "sessions", level: 1 },
  { heading: "## Migrating from", page: "migrating", level: 1 },
  { heading: "## Benchmarks", page: "benchmarks", level: 1 },
  { heading: "## Security model", page: "security", level: 1 },
  { heading: "## License", page: null, level: 2 },
]

/** Text a page starts with when none of its pieces is its title (hand-written, kept short). */
const PREAMBLE = {
  account: `# The account page and two-factor

What a signed-in user can do with their own account — sessions, linked providers, passkeys,
password and email changes, two-factor — through the API under \`/auth/account\`, the Qwik
loader and actions, and the built-in account page.
`,
  "guides/oauth": `# OAuth and OpenID Connect

Presets for the common providers live in \`@latchkey/core/providers/<id>\` (\`GitHub\`, \`Google\`,
\`Keycloak\`, …) and any OAuth 2 / OpenID Connect provider works as a generic
\`type: "oauth" | "oidc"\` object; the configuration and the variables each reads
(\`AUTH_<ID>_ID\`, \`AUTH_<ID>_SECRET\`, \`AUTH_<ID>_ISSUER\`) are in the
[configuration reference](/reference/configuration), adding a button in
[Getting started](/getting-started#next-steps).
`,
}

/** GitHub's anchor for a heading: what the README's own links use. */
export function githubSlug(text) {
  return text
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-")
}

/** VitePress's anchor for a heading (`@mdit-vue/shared`'s slugify, on the heading's text). */
export function siteSlug(text) {
  return text
    .replace(/`/g, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase()
}

function split(readme) {
  const lines = readme.split("\n")
  const starts = []
  let fence = false
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fence = !fence
    if (fence || !/^#{1,3} /.test(line)) return
    const piece = PIECES.find((p) => line.startsWith(p.heading))
    if (piece) starts.push({ ...piece, line: i })
    else if (/^#{1,2} /.test(line)) throw new Error(`no page for README section: ${line}`)
  })
  return starts.map((s, k) => ({ ...s, lines: lines.slice(s.line, starts[k + 1]?.line) }))
}

/** Shifts a piece's headings (outside code) so its first one gets `level`. */
function shift(lines, level) {
  const delta = level - lines[0].match(/^#+/)[0].length
  let fence = false
  return lines.map((line) => {
    if (/^\s*```/.test(line)) fence = !fence
    const m = !fence && line.match(/^(#+) (.*)$/)
    return m ? `${"#".repeat(m[1].length + delta)} ${m[2]}` : line
  })
}

/** Where each README anchor now lives: `/page` or `/page#anchor`. */
function anchorMap(pieces) {
  const map = new Map()
  for (const piece of pieces) {
    if (!piece.page) continue
    const shifted = shift(piece.lines, piece.level)
    let fence = false
    shifted.forEach((line, i) => {
      if (/^\s*```/.test(line)) fence = !fence
      const m = !fence && line.match(/^(#+) (.*)$/)
      if (!m) return
      const original = piece.lines[i].replace(/^#+ /, "")
      const url = m[1].length === 1 ? `/${piece.page}` : `/${piece.page}#${siteSlug(m[2])}`
      map.set(githubSlug(original), url.replace(/^\/index\b/, "/"))
    })
  }
  return map
}

function rewriteLinks(text, page, anchors) {
  return text.replace(/\]\(([^)\s]+)\)/g, (all, target) => {
    if (/^(https?:|mailto:)/.test(target)) return all
    if (target.startsWith("#")) {
      const url = anchors.get(target.slice(1))
      if (!url) throw new Error(`${page}: no section for the link ${target}`)
      const [path, hash] = url.split("#")
      return `](${path === `/${page}` && hash ? `#${hash}` : url})`
    }
    const design = target.match(/^docs\/design\/([\w-]+)\.md(#.*)?$/)
    if (design) return `](/design/${design[1]}${design[2] ?? ""})`
    return `](${REPO}${target})`
  })
}

export function pagesOf(readme) {
  const pieces = split(readme)
  const anchors = anchorMap(pieces)
  const pages = new Map()
  for (const piece of pieces) {
    if (!piece.page) continue
    const body = rewriteLinks(shift(piece.lines, piece.level).join("\n"), piece.page, anchors)
    const before = pages.get(piece.page) ?? PREAMBLE[piece.page] ?? ""
    pages.set(piece.page, `${before}${before ? "\n" : ""}${body.trimEnd()}\n`)
  }
  return pages
}

const partial = /(<!-- snippet: partial — [^\n]*-->\n)(```tsx?\n[^\n]*\n)/g

/**
 * Keeps the `snippet: partial` markers a page already has (they are the site's, not the
 * README's): each goes back above the block that starts with the same first line.
 */
function keepMarkers(text, file) {
  let old = ""
  try {
    old = readFileSync(file, "utf8")
  } catch {
    return text
  }
  const markers = new Map([...old.matchAll(partial)].map((m) => [m[2], m[1]]))
  return text.replace(/(?<!-->\n)```tsx?\n[^\n]*\n/g, (block) => (markers.get(block) ?? "") + block)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(process.argv[2] ?? "README.md", "utf8")
  for (const [page, text] of pagesOf(readme)) {
    const file = join(pagesDir, `${page}.md`)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, keepMarkers(text, file))
    console.log(`wrote ${file}`)
  }
}
