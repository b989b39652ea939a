// The file-level import graph of TypeScript programs, type-only imports included, as the
// compiler itself resolves it. Shared by check-import-cycles.mjs (circles between files) and
// check-core-layers.mjs (folders of the core that import each other, the kernel importing a
// feature).
//
// The graph comes from `tsc --explainFiles`, which states for every file of a program each
// import that pulled it in, so it resolves exactly as the build does: `import type`,
// `export … from`, `import("…")` in types, `#jwe`-style subpath imports, package self- and
// cross-references through the `latchkey-source` condition. Parsing the sources ourselves would
// miss some of those. TypeScript 7 has no in-process compiler API, hence the CLI.
import { execFileSync } from "node:child_process"
import { dirname, join, relative, resolve } from "node:path"

export const root = resolve(dirname(new URL(import.meta.url).pathname), "..")
const tsc = join(root, "node_modules", "typescript", "bin", "tsc")

/** Matches "Imported via "./x.js" from file 'src/y.ts'" and the triple-slash "Referenced via". */
const EDGE = /^\s+(?:Imported|Referenced) via .* from file '([^']+)'/

const ours = (file) => !file.split("/").includes("node_modules")

/**
 * importer → set of imported files, every path relative to `base` (default: the repository
 * root), for the programs `projects` (tsconfig files); the graphs of several programs are
 * merged. Files under node_modules are not ours and stay out of the graph.
 */
export function importGraph(projects, { base = root } = {}) {
  const graph = new Map()
  const addNode = (file) => {
    if (!graph.has(file)) graph.set(file, new Set())
    return graph.get(file)
  }
  for (const project of projects) {
    const cwd = dirname(resolve(base, project))
    let out
    try {
      out = execFileSync(
        process.execPath,
        [tsc, "-p", resolve(base, project), "--noEmit", "--noCheck", "--explainFiles"],
        { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] },
      )
    } catch (error) {
      // Configuration or syntax errors still print the file list; the typecheck step reports them.
      out = error.stdout ?? ""
      if (!out) throw error
    }
    let current = null
    for (const line of out.split("\n")) {
      if (line === "" || line.startsWith("error") || /^\S+\(\d+,\d+\)/.test(line)) continue
      if (!line.startsWith(" ")) {
        const file = relative(base, resolve(cwd, line.trim()))
        current = ours(file) ? file : null
        if (current) addNode(current)
        continue
      }
      const match = current && EDGE.exec(line)
      if (!match) continue
      const importer = relative(base, resolve(cwd, match[1]))
      if (ours(importer)) addNode(importer).add(current)
    }
  }
  return graph
}
