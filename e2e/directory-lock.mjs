/**
 * A lock between processes on one machine: a directory, which only one process can create.
 * Used where test processes running side by side would otherwise do the same install at once
 * (`runtime-tools/install.mjs`, the fixture apps' shared cache): two `npm` runs in one
 * directory corrupt each other's extraction.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

/** Runs `fn` holding the lock `lockDir`; a lock left by a dead process is taken over. */
export async function withDirectoryLock(lockDir, fn) {
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch (error) {
      if (error.code !== "EEXIST") throw error
      if (holderGone(lockDir)) rmSync(lockDir, { recursive: true, force: true })
      else await sleep(250)
    }
  }
  writeFileSync(join(lockDir, "pid"), String(process.pid))
  try {
    return await fn()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

/** Whether the lock was left by a process that no longer runs (killed mid-install). */
function holderGone(lockDir) {
  try {
    const pid = Number(readFileSync(join(lockDir, "pid"), "utf8"))
    process.kill(pid, 0)
    return false
  } catch (error) {
    if (error.code === "ESRCH") return true
    // No pid yet: the holder has just created the lock, unless that was long ago.
    if (error.code === "ENOENT") {
      try {
        return Date.now() - statSync(lockDir).mtimeMs > 60_000
      } catch {
        return false
      }
    }
    return false
  }
}
