#!/usr/bin/env node
// Restores package-lock entries for optional per-platform binaries (rollup's, biome's, …)
// that this machine's registry does not carry. npm leaves them out of the lock when it cannot
// fetch their metadata, and `npm ci` on a clean clone then rejects the lock as out of sync.
// Each restored entry carries the os/cpu/libc its name encodes, so npm skips it on every
// machine it does not fit and never tries to download it. Run after any `npm install`.
import { readFileSync, writeFileSync } from "node:fs"

const lockPath = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(lockPath, "utf8"))
const packages = lock.packages

const OS = [
  "android",
  "darwin",
  "linux",
  "freebsd",
  "openbsd",
  "netbsd",
  "sunos",
  "aix",
  "win32",
  "openharmony",
]
const CPU = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x", "mips64el"]

/** The platform a binary package name such as `@rollup/rollup-linux-arm64-musl` targets. */
function platformOf(name) {
  const words = name.split("/").pop().split("-")
  const os = words.find((w) => OS.includes(w))
  const cpu =
    words.find((w) => CPU.includes(w)) ??
    (words.includes("eabi") || words.includes("gnueabihf") || words.includes("musleabihf")
      ? "arm"
      : undefined)
  if (!os || !cpu) return null
  const libc =
    words.includes("musl") || words.includes("musleabihf")
      ? "musl"
      : os === "linux"
        ? "glibc"
        : undefined
  return { os, cpu, libc }
}

let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const parent = path === "" ? "" : `${path}/`
    const candidates = [`${parent}node_modules/${dep}`, `node_modules/${dep}`]
    if (candidates.some((c) => packages[c])) continue
    const platform = platformOf(dep)
    if (!platform) continue
    packages[`node_modules/${dep}`] = {
      version,
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    }
    added++
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) =>
    a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
)
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`fix-lock: restored ${added} optional platform entries`)
