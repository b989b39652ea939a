/**
 * Everything the pages interpolate passes through this module. Text and attribute values are
 * escaped; URLs and CSS colours are allow-listed, because escaping alone does not stop a
 * `javascript:` link or a colour that closes the `<style>` block (raw text, where entities are
 * not decoded).
 */

const htmlEntities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
}

/**
 * Escapes a value for HTML text and for double- or single-quoted attribute values alike, so
 * callers never have to know which context they are in.
 */
export function escapeHtml(value: string): string {
  // `String()` because page props can come from untyped config at runtime.
  return String(value).replace(/[&<>"']/g, (c) => htmlEntities[c] ?? c)
}

// Browsers strip or skip these inside URLs (`java\tscript:`), so a URL carrying any of them
// cannot be judged by its text: refuse it rather than guess what the browser will see.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f]/

/** The scheme a browser would give `value`, `null` for a relative URL, `undefined` if unsure. */
function schemeOf(value: string): string | null | undefined {
  if (controlCharacters.test(value)) return undefined
  // The WHATWG parser is the browser's own algorithm: a string it cannot parse on its own is
  // relative, and a relative URL takes the page's scheme (http or https).
  return URL.canParse(value) ? new URL(value).protocol : null
}

/** `value` if it is safe as an `href` or form `action` (http, https or relative), else `undefined`. */
export function safeLinkUrl(value: string | undefined): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined
  const scheme = schemeOf(value)
  if (scheme === null || scheme === "http:" || scheme === "https:") return value
  return undefined
}

/**
 * `value` if it is safe as an `<img src>`: http, https, relative, or a `data:image/…` URL (an
 * SVG in `<img>` runs no script). Anything else is dropped.
 */
export function safeImageUrl(value: string | undefined): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined
  const scheme = schemeOf(value)
  if (scheme === null || scheme === "http:" || scheme === "https:") return value
  if (scheme === "data:" && /^data:image\//i.test(value)) return value
  return undefined
}

const hexColour = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
// Only digits, separators and angle units: no letters that could spell `url(` or `var(`, and no
// `;`, `}` or `<` that could leave the declaration or the style block.
const functionalColour =
  /^(?:rgba?|hsla?)\(\s*(?:[-+]?[0-9.]+(?:%|deg|grad|rad|turn)?|none)(?:\s*[\s,/]\s*(?:[-+]?[0-9.]+(?:%|deg|grad|rad|turn)?|none)){2,3}\s*\)$/i

// CSS Color Module Level 4 named colours; a bare word outside this list would make the custom
// property invalid at computed-value time and silently lose the default.
const namedColours = new Set(
  (
    "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue " +
    "blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk " +
    "crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki " +
    "darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen " +
    "darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue " +
    "dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite " +
    "gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki " +
    "lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan " +
    "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen " +
    "lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen " +
    "magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen " +
    "mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream " +
    "mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid " +
    "palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum " +
    "powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown " +
    "seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen " +
    "steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow " +
    "yellowgreen transparent currentcolor"
  ).split(" "),
)

/** `value` trimmed if it is a hex, `rgb()`/`hsl()` or named CSS colour, else `undefined`. */
export function safeCssColour(value: string | undefined): string | undefined {
  if (typeof value !== "string") return undefined
  const colour = value.trim()
  if (hexColour.test(colour) || functionalColour.test(colour)) return colour
  if (namedColours.has(colour.toLowerCase())) return colour.toLowerCase()
  return undefined
}
