// What kind of app `npx latchkey init` is in: Qwik 1 or 2 (from package.json), and which
// package manager installs its packages (from the lock file).
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * @typedef {{ qwik: 1 | 2; binding: "@latchkey/qwik" | "@latchkey/qwik2"; core: string;
 *   router: string; packageManager: "npm" | "pnpm" | "yarn" | "bun";
 *   packageJson: Record<string, any> }} Project
 */

/**
 * @param {string} dir
 * @returns {Project}
 */
export function detectProject(dir) {
  const file = join(dir, "package.json")
  if (!existsSync(file)) {
    throw new Error(`no package.json in ${dir}: run latchkey init in the root of a Qwik City app`)
  }
  const packageJson = JSON.parse(readFileSync(file, "utf8"))
  const deps = { ...packageJson.dependencies, ...packageJson.devDependencies }
  /** @type {1 | 2} */
  let qwik
  if ("@qwik.dev/core" in deps) qwik = 2
  else if ("@builder.io/qwik" in deps) qwik = 1
  else {
    throw new Error(
      "package.json lists neither @builder.io/qwik (Qwik 1) nor @qwik.dev/core (Qwik 2): run latchkey init in a Qwik City app",
    )
  }
  return {
    qwik,
    binding: qwik === 2 ? "@latchkey/qwik2" : "@latchkey/qwik",
    core: qwik === 2 ? "@qwik.dev/core" : "@builder.io/qwik",
    router: qwik === 2 ? "@qwik.dev/router" : "@builder.io/qwik-city",
    packageManager: detectPackageManager(dir),
    packageJson,
  }
}

/** @param {string} dir */
function detectPackageManager(dir) {
  if (existsSync(join(dir, "pnpm-lock.yaml"))) return "pnpm"
  if (existsSync(join(dir, "yarn.lock"))) return "yarn"
  if (existsSync(join(dir, "bun.lock")) || existsSync(join(dir, "bun.lockb"))) return "bun"
  if (existsSync(join(dir, "package-lock.json"))) return "npm"
  // No lock file yet: the package manager that started us, if it says.
  const agent = process.env.npm_config_user_agent ?? ""
  for (const name of /** @type {const} */ (["pnpm", "yarn", "bun"])) {
    if (agent.startsWith(`${name}/`)) return name
  }
  return "npm"
}
