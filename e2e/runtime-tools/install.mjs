/**
 * The runtime tools of this directory (package.json, pinned by package-lock.json), for the
 * runtime tests and `npm run bench`: `npm ci` here on first use, skipped while node_modules
 * matches the lock. Kept apart from the repository's dependencies so the registry's Node 22
 * (for wrangler) never shadows the machine's Node on the repository's PATH.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { withDirectoryLock } from "../directory-lock.mjs"

const run = promisify(execFile)
export const toolsDir = fileURLToPath(new URL(".", import.meta.url))

/** The path of an installed tool's executable (`node_modules/.bin/<name>`). */
export const toolBin = (name) => join(toolsDir, "node_modules/.bin", name)

export async function installRuntimeTools() {
  const lock = readFileSync(join(toolsDir, "package-lock.json"))
  const digest = createHash("sha256").update(lock).digest("hex")
  const marker = join(toolsDir, "node_modules/.installed-lock-sha256")
  const installed = () => existsSync(marker) && readFileSync(marker, "utf8") === digest
  if (installed()) return
  // Test files in parallel workers (workerd's and Vercel Edge's) both get here on a fresh
  // clone: two `npm ci` in one directory corrupt each other's tarball extraction.
  await withDirectoryLock(lockDir, async () => {
    if (installed()) return
    const { NODE_ENV: _, ...env } = process.env
    await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: toolsDir,
      env: { ...env, npm_config_update_notifier: "false" },
      maxBuffer: 16 * 1024 * 1024,
    })
    writeFileSync(marker, digest)
  })
}

const lockDir = join(toolsDir, ".install-lock")
