import { escapeHtml, safeCssColour, safeImageUrl, safeLinkUrl } from "./escape.js"

/** The `theme` option as the pages read it. Every field is validated before use. */
export interface PageTheme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
}

/** What the handler turns into a `text/html` response. */
export interface PageResponse {
  status: number
  html: string
  /** Inline scripts the page carries (our own, constant): the CSP allows each by its hash. */
  scripts?: readonly string[]
}

export interface LayoutOptions {
  title: string
  theme: PageTheme
  /** The card's content: HTML that the caller has already escaped. */
  body: string
  /** Extra rules built only from validated values (see {@link safeCssColour}). */
  css?: string
  /** Our own constant inline scripts (the passkey ceremony); none on most pages. */
  scripts?: readonly string[]
}

// Fixed focus and link colours rather than the brand colour: a pale brand colour would fail
// the contrast a keyboard user needs to see where they are.
const light =
  "--bg:#f3f4f6;--card:#fff;--text:#111827;--muted:#4b5563;--border:#d1d5db;" +
  "--input-bg:#fff;--input-border:#6b7280;--placeholder:#6b7280;--link:#1d4ed8;--focus:#1d4ed8;" +
  "--error-bg:#fef2f2;--error-border:#f87171;--error-text:#991b1b;" +
  "--hover:rgb(0 0 0/.08);color-scheme:light"
const dark =
  "--bg:#030712;--card:#111827;--text:#f3f4f6;--muted:#9ca3af;--border:#374151;" +
  "--input-bg:#030712;--input-border:#6b7280;--placeholder:#8b949e;--link:#93c5fd;--focus:#93c5fd;" +
  "--error-bg:#450a0a;--error-border:#b91c1c;--error-text:#fecaca;" +
  "--hover:rgb(255 255 255/.1);color-scheme:dark"

// Without JavaScript the only way to follow the OS setting is the media query, hence `auto`
// repeats the dark palette inside it.
const baseCss = `*,*::before,*::after{box-sizing:border-box}
:root{--brand-color:#346df1;--button-text-color:#fff}
body{${light};margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:2rem 1rem;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
body.theme-dark{${dark}}
@media (prefers-color-scheme:dark){body.theme-auto{${dark}}}
.page{width:100%;max-width:24rem;display:flex;flex-direction:column;align-items:center;gap:1.5rem}
.logo{display:block;max-width:12rem;max-height:4rem;object-fit:contain}
.card{width:100%;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:2rem 1.75rem;box-shadow:0 1px 2px rgb(0 0 0/.06),0 4px 16px rgb(0 0 0/.06)}
h1{margin:0 0 1.5rem;font-size:1.5rem;line-height:1.25;font-weight:700;text-align:center}
p{margin:0 0 1rem}
.card>:last-child{margin-bottom:0}
.center{text-align:center}
.muted{color:var(--muted);font-size:.875rem}
.alert{margin:0 0 1.5rem;padding:.75rem 1rem;border:1px solid var(--error-border);border-left-width:4px;border-radius:8px;background:var(--error-bg);color:var(--error-text)}
.alert p{margin:0}
.alert p+p{margin-top:.25rem}
form{display:flex;flex-direction:column;gap:.75rem;margin:0}
.oauth+.oauth{margin-top:.75rem}
.field{display:flex;flex-direction:column;gap:.375rem}
label{font-size:.875rem;font-weight:600}
input{width:100%;margin:0;padding:.625rem .75rem;border:1px solid var(--input-border);border-radius:8px;background:var(--input-bg);color:var(--text);font:inherit}
input::placeholder{color:var(--placeholder);opacity:1}
.button{position:relative;display:flex;align-items:center;justify-content:center;gap:.75rem;width:100%;min-height:2.75rem;margin:0;padding:.625rem 1rem;border:1px solid transparent;border-radius:8px;background:var(--brand-color);color:var(--button-text-color);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.button:hover{box-shadow:inset 0 0 0 100vmax var(--hover)}
.button img{width:1.25rem;height:1.25rem;flex:none}
.provider{background:var(--provider-bg,var(--card));color:var(--provider-text,var(--text));border-color:var(--provider-brand,var(--border))}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
input:focus-visible{outline-offset:0;border-color:var(--focus)}
a{color:var(--link);text-underline-offset:.15em}
.divider{display:flex;align-items:center;gap:.75rem;margin:1.5rem 0;color:var(--muted);font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
@media (max-width:30rem){body{padding:1rem .75rem;align-items:flex-start}.card{padding:1.5rem 1.25rem}}`

const colorSchemes = new Set(["auto", "dark", "light"])

/** The one HTML shell every built-in page is rendered into. */
export function renderLayout({
  title,
  theme,
  body,
  css = "",
  scripts = [],
}: LayoutOptions): string {
  const scheme = colorSchemes.has(theme.colorScheme ?? "") ? theme.colorScheme : "auto"
  const logo = safeImageUrl(theme.logo)
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>
${baseCss}
${themeCss(theme)}${css}
</style>
</head>
<body class="theme-${scheme}">
<main class="page">
${logo === undefined ? "" : `<img class="logo" src="${escapeHtml(logo)}" alt="">\n`}<div class="card">
${body}
</div>
</main>
${scripts.map((source) => `<script>${source}</script>\n`).join("")}</body>
</html>
`
}

function themeCss(theme: PageTheme): string {
  const declarations = cssDeclarations({
    "--brand-color": theme.brandColor,
    "--button-text-color": theme.buttonText,
  })
  return declarations === "" ? "" : `:root{${declarations}}\n`
}

/** `<input type="hidden">` for the CSRF token and callback URL, skipping empty values. */
export function hiddenFields(fields: { csrfToken?: string; callbackUrl?: string }): string {
  let out = ""
  // An empty token means the framework does its own CSRF check (`skipCSRFCheck`): an empty
  // field would only make the server compare against nothing.
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string" && value !== "") {
      out += `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`
    }
  }
  return out
}

/**
 * `prop:value;` for each value that is a valid CSS colour, the rest dropped: the only way a
 * configured value reaches the style block, where HTML escaping would not help.
 */
export function cssDeclarations(values: Record<string, string | undefined>): string {
  let out = ""
  for (const [property, value] of Object.entries(values)) {
    const colour = safeCssColour(value)
    if (colour !== undefined) out += `${property}:${colour};`
  }
  return out
}

/**
 * ` action="…"` for a safe URL. An unsafe one (a misconfiguration, never user input) loses the
 * attribute, so the form posts back to its own page and fails visibly instead of running script.
 */
export function formAction(url: string): string {
  const safe = safeLinkUrl(url)
  return safe === undefined ? "" : ` action="${escapeHtml(safe)}"`
}
