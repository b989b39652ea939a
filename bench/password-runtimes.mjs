// `npm run bench password-hash`: the cost of Latchkey's password hash (bench/password-hash.mjs)
// on Node, Deno and Bun (the registry's builds, from e2e/runtime-tools), the same bundled code on
// each. workerd has no row: it refuses to compile WebAssembly at run time (no argon2id there;
// the PBKDF2 fallback runs) and stops its clocks while a request runs, so a hash cannot time
// itself there.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { installRuntimeTools, toolBin, toolsDir } from "../e2e/runtime-tools/install.mjs"
import { printTable } from "./harness.mjs"

const run = promisify(execFile)
const SCRIPT = `import { passwordHashCost } from "./password-hash.mjs"
console.log(JSON.stringify(await passwordHashCost()))`

export async function benchPasswordHash() {
  await installRuntimeTools()
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-hash-"))
  try {
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n')
    const { build } = await import(join(toolsDir, "node_modules/esbuild/lib/main.js"))
    const file = join(dir, "password-hash.bundle.mjs")
    await build({
      stdin: { contents: SCRIPT, resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      conditions: ["worker", "browser"],
      // bcryptjs (imported hashes, never loaded here) names node's crypto; each runtime has one.
      external: ["crypto"],
      outfile: file,
      logLevel: "error",
    })
    const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(dir, ".deno") }
    const runtimes = [
      ["Node", process.execPath, [file]],
      ["Deno", toolBin("deno"), ["run", "--no-lock", "--no-config", file]],
      ["Bun", toolBin("bun"), [file]],
    ]
    const rows = []
    for (const [name, bin, args] of runtimes) {
      const { stdout } = await run(bin, args, { env, cwd: dir })
      const { stdout: v } = await run(bin, ["--version"], { env, cwd: dir })
      const label = `${name} ${/\d+\.\d+\.\d+/.exec(v)?.[0] ?? "?"}`
      for (const [algorithm, r] of Object.entries(JSON.parse(stdout))) {
        rows.push([label, algorithm, `${r.verify.toFixed(1)} ms`, `${r.hash.toFixed(1)} ms`])
      }
    }
    printTable(
      "Latchkey's password hash per runtime (ms per call, median of 7)",
      ["runtime", "algorithm", "verify (sign-in)", "new hash (sign-up)"],
      rows,
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
