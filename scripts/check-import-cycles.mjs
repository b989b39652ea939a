#!/usr/bin/env node
// Fails when any of our source files sit in an import circle, type-only imports included.
//
// The graph is the compiler's own (scripts/import-graph.mjs: `tsc --explainFiles`), so it resolves
// exactly as the build does: `import type`, `import("…")` in types, `#jwe`-style subpath
// imports, package self- and cross-references through the `latchkey-source` condition.
//
// Every workspace with a tsconfig.json is one program (its sources, tests and whatever of the
// other packages they reach); the graphs are merged, so a circle across two packages counts too.
// Files under node_modules are not ours and stay out of the graph.
//
//   node scripts/check-import-cycles.mjs          # exit 1 and list the circles, if any
//   node scripts/check-import-cycles.mjs --graph  # also print each file's imports (for moving)
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { importGraph, root } from "./import-graph.mjs"

const workspaces = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces
const programs = workspaces.filter((dir) => existsSync(join(root, dir, "tsconfig.json")))
/** importer → set of imported files, both relative to the repository root. */
const graph = importGraph(programs.map((dir) => join(dir, "tsconfig.json")))

/** Strongly connected components (Tarjan, iterative: the graph may be deep). */
function components(nodes) {
  let next = 0
  const index = new Map()
  const low = new Map()
  const onStack = new Set()
  const stack = []
  const found = []
  for (const start of nodes.keys()) {
    if (index.has(start)) continue
    const work = [[start, [...nodes.get(start)], 0]]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const [node, edges] = frame
      if (frame[2] < edges.length) {
        const to = edges[frame[2]++]
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next++)
          stack.push(to)
          onStack.add(to)
          work.push([to, [...(nodes.get(to) ?? [])], 0])
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1][0]
        low.set(parent, Math.min(low.get(parent), low.get(node)))
      }
      if (low.get(node) === index.get(node)) {
        const members = []
        let member
        do {
          member = stack.pop()
          onStack.delete(member)
          members.push(member)
        } while (member !== node)
        const selfLoop = members.length === 1 && nodes.get(node)?.has(node)
        if (members.length > 1 || selfLoop) found.push(members.sort())
      }
    }
  }
  return found
}

/** One shortest circle through `from` inside its component, to show what to cut. */
function shortestCircle(from, members) {
  const inside = new Set(members)
  const previous = new Map([[from, null]])
  const queue = [from]
  while (queue.length > 0) {
    const node = queue.shift()
    for (const to of graph.get(node) ?? []) {
      if (!inside.has(to)) continue
      if (to === from) {
        const path = [from]
        for (let at = node; at !== from; at = previous.get(at)) path.splice(1, 0, at)
        return [...path, from]
      }
      if (!previous.has(to)) {
        previous.set(to, node)
        queue.push(to)
      }
    }
  }
  return [from]
}

if (process.argv.includes("--graph")) {
  for (const [file, imports] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${file}\n${[...imports].map((to) => `  → ${to}`).join("\n")}`)
  }
}

const circles = components(graph)
const files = graph.size
if (circles.length === 0) {
  console.log(
    `check-import-cycles: ${files} files in ${programs.length} programs, no import circle`,
  )
} else {
  console.error(`check-import-cycles: ${circles.length} import circle(s) among ${files} files`)
  for (const members of circles) {
    console.error(`\n${members.length} files in one circle:`)
    for (const member of members) console.error(`  ${member}`)
    console.error(`  e.g. ${shortestCircle(members[0], members).join("\n    → ")}`)
  }
  process.exitCode = 1
}
