import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const entry = fileURLToPath(new URL("../../src/jwt.ts", import.meta.url))

/** Bundle the token module as a consumer on `platform` would, and list what it pulls in. */
async function bundleInputs(platform: "node" | "browser" | "neutral") {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform,
    conditions: ["latchkey-source"],
    mainFields: ["module", "main"],
    external: platform === "node" ? ["node:*"] : [],
    logLevel: "silent",
  })
  const inputs = Object.keys(result.metafile.inputs)
  const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path))
  return { inputs, imports }
}

describe("the package's import conditions pick the JWE backend", () => {
  it("edge/browser builds get jose over WebCrypto and never node:crypto", async () => {
    const { inputs, imports } = await bundleInputs("browser")
    expect(inputs.some((i) => i.endsWith("kernel/token/jwe-web.ts"))).toBe(true)
    expect(inputs.some((i) => i.endsWith("kernel/token/jwe-node.ts"))).toBe(false)
    expect(imports.some((i) => i.startsWith("node:"))).toBe(false)
  })

  it("Node builds get node:crypto and do not bundle jose's JWE code", async () => {
    const { inputs } = await bundleInputs("node")
    expect(inputs.some((i) => i.endsWith("kernel/token/jwe-node.ts"))).toBe(true)
    expect(inputs.some((i) => i.endsWith("kernel/token/jwe-web.ts"))).toBe(false)
    expect(inputs.some((i) => i.includes("node_modules/jose/"))).toBe(false)
  })
})
