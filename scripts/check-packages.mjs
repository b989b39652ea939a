#!/usr/bin/env node
// Checks every publishable package the way a consumer would meet it: publint for the
// package.json (exports, files, types), @arethetypeswrong/cli for type resolution under
// node16 and bundler resolution (Latchkey is ESM-only, hence the esm-only profile), and the
// tarball itself (`npm pack --dry-run`): LICENSE, README.md, package.json and every entry file
// present, and nothing that should not ship (tests, env files, build caches).
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const workspaces = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces
const bin = (name) => join(root, "node_modules", ".bin", name)

/** Files no tarball may hold, wherever they are. */
const FORBIDDEN = [
  /(^|\/)\.env(\.|$)/,
  /(^|\/)(test|tests|__tests__|e2e)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /\.tsbuildinfo$/,
  /(^|\/)tsconfig[^/]*\.json$/,
  /(^|\/)vite\.config\./,
  /(^|\/)node_modules\//,
]
const ALWAYS = ["LICENSE", "README.md", "package.json"]

/** Every file path a package.json points consumers at (exports, imports, bin, qwik, types). */
function entryTargets(pkg) {
  const targets = new Set()
  const walk = (value, condition) => {
    if (typeof value === "string") {
      if (value.startsWith("./") && condition !== "latchkey-source") targets.add(value.slice(2))
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(inner, key)
    }
  }
  walk(pkg.exports)
  walk(pkg.imports)
  walk(typeof pkg.bin === "string" ? { bin: pkg.bin } : pkg.bin)
  for (const field of ["main", "module", "types", "qwik"]) walk(pkg[field])
  targets.delete("package.json")
  return [...targets]
}

/** A target (possibly with one `*`) matched by at least one packed file. */
function present(target, files) {
  if (!target.includes("*")) return files.has(target)
  const [head, tail] = target.split("*")
  return [...files].some(
    (f) => f.startsWith(head) && f.endsWith(tail) && f.length > target.length - 1,
  )
}

function checkTarball(dir, pkg) {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: join(root, dir),
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  })
  const files = new Set(JSON.parse(out)[0].files.map((f) => f.path))
  const problems = []
  for (const name of ALWAYS) if (!files.has(name)) problems.push(`missing ${name}`)
  for (const target of entryTargets(pkg)) {
    if (!present(target, files)) problems.push(`missing entry file ${target}`)
  }
  const allowedRoots = (pkg.files ?? []).map((f) => f.replace(/\/$/, ""))
  for (const file of files) {
    if (FORBIDDEN.some((re) => re.test(file))) problems.push(`unexpected ${file}`)
    else if (
      !ALWAYS.includes(file) &&
      !allowedRoots.some((r) => file === r || file.startsWith(`${r}/`))
    ) {
      problems.push(`unexpected ${file} (outside "files")`)
    }
  }
  return { problems, count: files.size }
}

let failed = false
for (const dir of workspaces) {
  const pkgPath = join(root, dir, "package.json")
  if (!existsSync(pkgPath)) continue
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"))
  if (pkg.private || !pkg.exports) continue
  for (const [tool, args] of [
    ["publint", ["--strict", join(root, dir)]],
    ["attw", ["--pack", join(root, dir), "--profile", "esm-only", "--format", "table-flipped"]],
  ]) {
    try {
      execFileSync(bin(tool), args, { stdio: "pipe", encoding: "utf8" })
      console.log(`✓ ${tool} ${pkg.name}`)
    } catch (error) {
      failed = true
      console.error(`✗ ${tool} ${pkg.name}\n${error.stdout ?? ""}${error.stderr ?? ""}`)
    }
  }
  const metadata = ["repository", "homepage", "bugs", "keywords"].filter((k) => !pkg[k])
  if (pkg.repository && pkg.repository.directory !== dir) metadata.push("repository.directory")
  if (metadata.length > 0) {
    failed = true
    console.error(`✗ metadata ${pkg.name}: missing ${metadata.join(", ")}`)
  } else {
    console.log(`✓ metadata ${pkg.name}`)
  }
  try {
    const { problems, count } = checkTarball(dir, pkg)
    if (problems.length > 0) {
      failed = true
      console.error(`✗ tarball ${pkg.name}\n  ${problems.join("\n  ")}`)
    } else {
      console.log(`✓ tarball ${pkg.name} (${count} files)`)
    }
  } catch (error) {
    failed = true
    console.error(`✗ tarball ${pkg.name}\n${error.stderr ?? error.message}`)
  }
}
process.exit(failed ? 1 : 0)
