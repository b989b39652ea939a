#!/usr/bin/env node
// Fails when folders of the core import each other, or a layer imports one it must not (issue
// 43: a small kernel that imports no feature, and features that meet only through the kernel's
// declared points). A file-level circle check (check-import-cycles.mjs) passes on a tree whose
// folders still reach into each other; this one looks at folders.
//
// The graph is the compiler's own (scripts/import-graph.mjs: `tsc --explainFiles` on the core's
// build program), so type-only imports, `export … from` and `import("…")` in types all count.
//
// Until the kernel/features layout exists (LAYOUT.enforceOnceExists), the check prints what it
// finds and passes with a warning; from then on every violation fails it.
//
//   node scripts/check-core-layers.mjs            # the core, as `npm run check:layers`
//   node scripts/check-core-layers.mjs --strict   # fail on violations even before the new layout
//   node scripts/check-core-layers.mjs --project <tsconfig> --source <dir>   # another tree
import { existsSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import { importGraph, root } from "./import-graph.mjs"

// ---- The rules. Change these when the layout changes. ----------------------------------------

const LAYOUT = {
  /** The program whose import graph is checked (sources only, no tests). */
  project: "packages/core/tsconfig.build.json",
  /** The tree whose folders are checked. */
  source: "packages/core/src",
  /** Folder (under `source`) whose existence means the new layout is in: violations then fail. */
  enforceOnceExists: "kernel",
}

/**
 * Rule (a), between any two folders: no two folders import each other. A folder is a directory;
 * the files directly in `source` are the package's public entry points: they may import
 * anything, and nothing under a folder may import them back (except those in `importable`).
 */
const FOLDER_RULES = {
  pair: {
    why: "two folders that import each other have no order: neither can be read, tested or removed without the other",
    fix: "move what both need into a folder below them both (the kernel), or let the lower one receive the higher one's code through a declared point (a config value, a feature's entry) instead of importing it",
  },
  entryImportedBack: {
    why: "the entry files sit above every folder; a folder that imports one depends on everything it re-exports",
    fix: "import the module the entry file re-exports from (its types or values live in a folder), or move the declaration out of the entry file into the folder that owns it",
    /** Entry files that folders may import after all (e.g. "types.ts"); none today. */
    importable: [],
  },
}

/**
 * Rules (b) and (c), between layers: a file under `from` may not import a file under `to`.
 * A path is relative to `source` and ends with "/" (a folder and everything under it); `*`
 * stands for one folder name. With `sameNameAllowed`, `*` in `from` and in `to` naming the same
 * folder is allowed (a feature importing its own files).
 */
const LAYER_RULES = [
  {
    name: "the kernel imports a feature",
    from: "kernel/",
    to: "features/",
    fix: "the kernel finds features in the config (a provider or a config key brings its feature): declare the point in the kernel and let the feature fill it, or move the code into the feature",
  },
  {
    name: "the kernel imports a provider",
    from: "kernel/",
    to: "providers/",
    fix: "providers sit above the kernel and bring their feature: move what the kernel needs from the provider into the kernel",
  },
  {
    name: "a feature imports another feature",
    from: "features/*/",
    to: "features/*/",
    sameNameAllowed: true,
    fix: "features meet only through the kernel's declared points: move the shared code into the kernel, or have one feature declare a point (an event, a sign-in step) the other joins",
  },
  {
    name: "a feature imports a provider",
    from: "features/*/",
    to: "providers/",
    fix: "a provider imports its feature, never the reverse: move what the feature needs from the provider into the feature",
  },
]

// ---- The check. ----------------------------------------------------------------------------

/** The folder of a file (a path relative to the source tree): its directory, "" at the top. */
const folderOf = (file) => (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "")

/**
 * Whether `file` is under the layer `pattern`: undefined if not, else the folder name `*` stands
 * for ("" for a pattern without one).
 */
function matchLayer(pattern, file) {
  if (!pattern.includes("*")) return file.startsWith(pattern) ? "" : undefined
  const [head, tail] = pattern.split("*")
  if (!file.startsWith(head)) return undefined
  const rest = file.slice(head.length)
  const slash = rest.indexOf("/")
  if (slash <= 0) return undefined
  const name = rest.slice(0, slash)
  return rest.slice(slash).startsWith(tail) ? name : undefined
}

/** Every violation of the rules in `edges` ([importer, imported] pairs relative to the source). */
function findViolations(edges) {
  const pairs = new Map() // "a\0b" (a < b) → { a, b, ab: [edges a→b], ba: [edges b→a] }
  const entries = new Map() // entry file → [edges into it from folders]
  const layers = LAYER_RULES.map((rule) => ({ rule, edges: [] }))
  const between = new Map() // "from\0to" folder edge → file edges
  for (const [from, to] of edges) {
    const [a, b] = [folderOf(from), folderOf(to)]
    if (a !== "" && b === "" && !FOLDER_RULES.entryImportedBack.importable.includes(to)) {
      if (!entries.has(to)) entries.set(to, [])
      entries.get(to).push([from, to])
    }
    if (a !== b && a !== "" && b !== "") {
      const key = `${a}\0${b}`
      if (!between.has(key)) between.set(key, [])
      between.get(key).push([from, to])
    }
    for (const layer of layers) {
      const x = matchLayer(layer.rule.from, from)
      const y = matchLayer(layer.rule.to, to)
      if (x === undefined || y === undefined) continue
      if (layer.rule.sameNameAllowed && x === y) continue
      layer.edges.push([from, to])
    }
  }
  for (const [key, ab] of between) {
    const [a, b] = key.split("\0")
    const ba = between.get(`${b}\0${a}`)
    if (a < b && ba) pairs.set(key, { a, b, ab, ba })
  }
  return {
    pairs: [...pairs.values()].sort((x, y) => x.a.localeCompare(y.a) || x.b.localeCompare(y.b)),
    entries: [...entries].sort(([x], [y]) => x.localeCompare(y)),
    layers: layers.filter((layer) => layer.edges.length > 0),
  }
}

const arrows = (edges, indent) =>
  edges
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, to]) => `${indent}${from} → ${to}`)
    .join("\n")

/** The report, one block per violation, each with its files and how to fix it. */
function report({ pairs, entries, layers }) {
  const blocks = []
  if (pairs.length > 0) {
    blocks.push(
      `${pairs.length} pair(s) of folders import each other (${FOLDER_RULES.pair.why}).\n  Fix: ${FOLDER_RULES.pair.fix}.`,
    )
    for (const { a, b, ab, ba } of pairs) {
      blocks.push(`${a}/ ↔ ${b}/\n${arrows(ab, "  ")}\n${arrows(ba, "  ")}`)
    }
  }
  if (entries.length > 0) {
    blocks.push(
      `${entries.length} entry file(s) imported back from a folder (${FOLDER_RULES.entryImportedBack.why}).\n  Fix: ${FOLDER_RULES.entryImportedBack.fix}.`,
    )
    for (const [entry, edges] of entries) blocks.push(`${entry}\n${arrows(edges, "  ")}`)
  }
  for (const { rule, edges } of layers) {
    blocks.push(
      `${rule.name} (${rule.from} → ${rule.to}):\n${arrows(edges, "  ")}\n  Fix: ${rule.fix}.`,
    )
  }
  return blocks.join("\n\n")
}

function main() {
  const { values } = parseArgs({
    options: {
      project: { type: "string" },
      source: { type: "string" },
      strict: { type: "boolean", default: false },
    },
  })
  const project = values.project ? resolve(values.project) : join(root, LAYOUT.project)
  const source = values.source ? resolve(values.source) : join(root, LAYOUT.source)
  const graph = importGraph([project])
  const inside = (file) => {
    const path = relative(source, resolve(root, file))
    return path.startsWith("..") ? undefined : path
  }
  const edges = []
  for (const [file, imports] of graph) {
    const from = inside(file)
    if (from === undefined) continue
    for (const imported of imports) {
      const to = inside(imported)
      if (to !== undefined && to !== from) edges.push([from, to])
    }
  }
  const found = findViolations(edges)
  const count = found.pairs.length + found.entries.length + found.layers.length
  const name = relative(root, source) || "."
  if (count === 0) {
    console.log(
      `check-core-layers: ${name}: ${graph.size} files, no folder imports a folder it must not`,
    )
    return
  }
  const enforced = values.strict || existsSync(join(source, LAYOUT.enforceOnceExists))
  const print = enforced ? console.error : console.warn
  print(`check-core-layers: ${name}: ${count} violation(s)\n\n${report(found)}`)
  if (enforced) {
    process.exitCode = 1
  } else {
    print(
      `\ncheck-core-layers: warning only: ${join(name, LAYOUT.enforceOnceExists)}/ does not exist yet (the layout of issue 43); once it does, these fail the check (--strict fails them now).`,
    )
  }
}

main()
