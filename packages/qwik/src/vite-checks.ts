/**
 * The mistakes `latchkey()` (`vite.ts`) catches at build time, each a one-line warning with a
 * code and what to do:
 *
 * - `vite-loader-in-plugin`: a per-user loader (`useAccount`, `useTwoFactorStatus`) exported
 *   from a Qwik City plugin file (`plugin@auth.ts`): Qwik City runs the loaders a plugin exports
 *   on every page, so every page would read the account from the database.
 * - `vite-namespace-import`: `QwikAuth$` called through `import * as x from "@latchkey/qwik"`,
 *   which the plugin's import rewrite cannot reach: the config goes to the client build.
 * - `vite-session-prerendered`: a page or layout that reads the session was prerendered (SSG,
 *   which `qwik add deno` / `bun` / `static` turn on for every route): its HTML is frozen as it
 *   rendered signed out at build time, and served to every visitor.
 *
 * The checks read source text (no parser: the plugin runs in `vite.config.ts` and imports nothing
 * beyond Node), so they look for the forms the README and Qwik's starters write.
 */
import { existsSync, readdirSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"

export type CheckCode =
  | "vite-loader-in-plugin"
  | "vite-namespace-import"
  | "vite-session-prerendered"

/** One warning line, in the core's console format: `[latchkey][warn][<code>] <message>`. */
export function warningLine(code: CheckCode, message: string): string {
  return `[latchkey][warn][${code}] ${message}`
}

/** Loaders that read the signed-in user's data from the database on every call. */
const PER_USER_LOADERS = ["useAccount", "useTwoFactorStatus"]
/** Names that read the session in a route module, imported from the auth plugin. */
const SESSION_READERS = ["useSession", ...PER_USER_LOADERS]

/** The module path under `src/routes/`, or undefined for a module outside the routes. */
function routePath(id: string, root: string): string | undefined {
  const path = (id.split("?")[0] ?? id).split(sep).join("/")
  const at = path.lastIndexOf("/src/routes/")
  if (at < 0) return undefined
  const display = path.startsWith(root) ? path.slice(root.length).replace(/^\//, "") : path
  return display.length > 0 ? display : path
}

/** `plugin.ts`, `plugin@auth.ts`: the files Qwik City runs on every request under their folder. */
function isPluginFile(path: string): boolean {
  return /\/plugin(@[^/]+)?\.[cm]?[jt]sx?$/.test(path)
}

/** The names a module exports (locals and, for destructuring and `as`, the source names too). */
function exportedNames(code: string): string[] {
  const names: string[] = []
  for (const [, pattern] of code.matchAll(/export\s+(?:const|let|var)\s*\{([^}]*)\}\s*=/g)) {
    for (const entry of (pattern ?? "").split(",")) {
      if (entry.trim().startsWith("...")) continue
      names.push(...entry.split(/[:=]/).map((part) => part.trim()))
    }
  }
  for (const [, name, value] of code.matchAll(
    /export\s+(?:const|let|var)\s+([\w$]+)\s*=\s*([\w$.]*)/g,
  )) {
    names.push(name ?? "", (value ?? "").split(".").pop() ?? "")
  }
  for (const [, list] of code.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const entry of (list ?? "").split(",")) {
      names.push(...entry.split(/\s+as\s+/).map((part) => part.replace(/^\s*type\s+/, "").trim()))
    }
  }
  return names.filter(Boolean)
}

/** `vite-loader-in-plugin`: the per-user loaders a plugin file exports. */
function loaderInPlugin(path: string, code: string): string[] {
  if (!isPluginFile(path)) return []
  const exported = new Set(exportedNames(code))
  return PER_USER_LOADERS.filter((name) => exported.has(name)).map((name) =>
    warningLine(
      "vite-loader-in-plugin",
      `${path} exports ${name}: Qwik City runs a plugin's loaders on every page, so every page would read the account. Export it from the page that shows it instead (keep it in a plain object here: export const accountLoaders = { ${name}: auth.${name} }).`,
    ),
  )
}

/** `vite-namespace-import`: `ns.QwikAuth$(…)` through `import * as ns from "@latchkey/qwik"`. */
function namespaceImport(path: string, code: string): string[] {
  const warnings: string[] = []
  for (const [, ns] of code.matchAll(
    /import\s*\*\s*as\s+([\w$]+)\s+from\s*["']@latchkey\/qwik["']/g,
  )) {
    const escaped = (ns ?? "").replaceAll("$", "\\$")
    if (new RegExp(`(?<![\\w$.])${escaped}\\s*\\.\\s*QwikAuth\\$`).test(code)) {
      warnings.push(
        warningLine(
          "vite-namespace-import",
          `${path} calls ${ns}.QwikAuth$ through \`import * as ${ns}\`, which latchkey() cannot rewrite: the config and its imports go to the client build. Import it by name: import { routeAuth$ } from "@latchkey/qwik".`,
        ),
      )
    }
  }
  return warnings
}

/** The warnings of one app module's source (`vite-loader-in-plugin`, `vite-namespace-import`). */
export function checkModule(id: string, code: string, root: string): string[] {
  const path = routePath(id, root) ?? id.split("?")[0] ?? id
  return [...loaderInPlugin(path, code), ...namespaceImport(path, code)]
}

/** A page or layout that reads the session, and the pathnames it renders. */
export interface SessionReader {
  /** The file, relative to the app. */
  path: string
  /** Matches the pathnames (with a trailing slash) the module renders. */
  pathnames: RegExp
}

/**
 * The page (`index.*`) or layout (`layout*.*`) `id` is, when it reads the session: it imports
 * `useSession`, `useAccount` or `useTwoFactorStatus` from the auth plugin, or reads
 * `sharedMap.get("session")`.
 */
export function sessionReader(id: string, code: string, root: string): SessionReader | undefined {
  const path = routePath(id, root)
  const match = path && /\/src\/routes\/(.*?)(index|layout[^/]*)\.[cm]?[jt]sx?$/.exec(`/${path}`)
  if (!path || !match) return undefined
  const imports = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'][^"']*plugin@[^"']*["']/g)]
  const names = imports.flatMap(([, list]) =>
    (list ?? "").split(",").map((entry) => entry.split(/\s+as\s+/)[0]?.trim() ?? ""),
  )
  const reads =
    names.some((name) => SESSION_READERS.includes(name)) ||
    /sharedMap\.get\(\s*["'](?:@latchkey\/)?session["']\s*\)/.test(code)
  if (!reads) return undefined
  const dir = (match[1] ?? "")
    .split("/")
    .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment))
    .map((segment) =>
      segment.startsWith("[...")
        ? ".*"
        : segment.startsWith("[")
          ? "[^/]+"
          : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
  const prefix = `/${dir.map((segment) => `${segment}/`).join("")}`
  // A layout renders every page under its folder; a page only its own.
  const pathnames = new RegExp(`^${prefix}${match[2] === "index" ? "" : ".*"}$`)
  return { path, pathnames }
}

/** The pathnames (with a trailing slash) of the HTML pages prerendered into `dir`. */
export function prerenderedPathnames(dir: string): string[] {
  return existsSync(dir) ? htmlPages(dir, dir).sort() : []
}

function htmlPages(dir: string, at: string): string[] {
  return readdirSync(at).flatMap((entry) => {
    const file = join(at, entry)
    if (statSync(file).isDirectory()) return htmlPages(dir, file)
    if (!entry.endsWith(".html") || entry === "404.html") return []
    const rel = relative(dir, file).split(sep).join("/")
    return [`/${rel === "index.html" ? "" : rel.replace(/(\/index)?\.html$/, "/")}`]
  })
}

/** `vite-session-prerendered`: each prerendered pathname a session reader renders. */
export function checkPrerendered(readers: SessionReader[], pathnames: string[]): string[] {
  const warnings: string[] = []
  for (const pathname of pathnames) {
    const reader = readers.find((r) => r.pathnames.test(pathname))
    if (!reader) continue
    warnings.push(
      warningLine(
        "vite-session-prerendered",
        `${pathname} was prerendered (SSG) but ${reader.path} reads the session: every visitor gets the page as it rendered signed out at build time. Leave it out of the adapter's ssg options (ssg: { include: [...], exclude: ["${pathname}"] }, or ssg: null).`,
      ),
    )
  }
  return warnings
}
