#!/usr/bin/env node
// Checks every publishable package the way a consumer would meet it: publint for the
// package.json (exports, files, types) and @arethetypeswrong/cli for type resolution under
// node16 and bundler resolution. Latchkey is ESM-only, hence the esm-only profile.
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const workspaces = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces
const bin = (name) => join(root, "node_modules", ".bin", name)

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
}
process.exit(failed ? 1 : 0)
