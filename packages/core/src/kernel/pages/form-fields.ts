/**
 * A form of configured fields, as the credentials, password and passkey entries show them. The
 * fields come from the app's config, so only attributes that shape input are kept.
 */
import { escapeHtml } from "./escape.js"
import { formAction } from "./layout.js"
import { type PageProvider, type SignInBlock, submitButton } from "./sign-in-entry.js"

export type CredentialField = NonNullable<PageProvider["credentials"]>[string]

const inputTypes = new Set([
  "text",
  "password",
  "email",
  "tel",
  "url",
  "number",
  "search",
  "date",
  "time",
  "datetime-local",
  "month",
  "week",
])
const inputModes = new Set(["none", "text", "decimal", "numeric", "tel", "search", "email", "url"])
const textAttributes = new Set(["placeholder", "autocomplete", "pattern"])
const lengthAttributes = new Set(["minlength", "maxlength"])

/** The inputs of `fields`, each with its label, ids derived from the entry's `index`. */
export function renderFields(fields: Record<string, CredentialField>, index: number): string {
  return Object.entries(fields)
    .map(([name, field], i) => renderField(name, field, `field-${index}-${i}`))
    .join("")
}

function renderField(name: string, field: CredentialField, id: string): string {
  const type =
    typeof field.type === "string" && inputTypes.has(field.type.toLowerCase())
      ? field.type.toLowerCase()
      : "text"
  const label = typeof field.label === "string" && field.label !== "" ? field.label : name
  return (
    `<div class="field"><label for="${id}">${escapeHtml(label)}</label>` +
    `<input id="${id}" type="${type}" name="${escapeHtml(name)}"${safeAttributes(field)}></div>\n`
  )
}

/**
 * Auth.js spreads every credential property onto the `<input>`; here only attributes that
 * shape input survive, so config can never add `on*` handlers, `style`, `form` or `formaction`.
 */
function safeAttributes(field: CredentialField): string {
  const seen = new Set<string>()
  let out = ""
  for (const [key, value] of Object.entries(field)) {
    // Accept React-style `autoComplete` / `minLength`, which Auth.js configs often use.
    const attr = key.toLowerCase()
    if (seen.has(attr)) continue
    seen.add(attr)
    if (textAttributes.has(attr) && (typeof value === "string" || typeof value === "number")) {
      out += ` ${attr}="${escapeHtml(String(value))}"`
    } else if (lengthAttributes.has(attr) && /^\d{1,6}$/.test(String(value))) {
      out += ` ${attr}="${String(value)}"`
    } else if (attr === "inputmode" && typeof value === "string" && inputModes.has(value)) {
      out += ` inputmode="${value}"`
    } else if (attr === "required" && (value === true || value === "" || value === "required")) {
      out += " required"
    }
  }
  return out
}

/** A form posting `fields` to `url`, with one submit button. */
export function fieldsForm(
  url: string,
  fields: Record<string, CredentialField>,
  index: number,
  hidden: string,
  label: string,
): SignInBlock {
  return {
    group: "form",
    css: "",
    html: `<form${formAction(url)} method="post">\n${hidden}${renderFields(fields, index)}${submitButton(label)}</form>\n`,
  }
}
