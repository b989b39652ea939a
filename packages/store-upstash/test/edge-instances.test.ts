/**
 * Two app instances on Vercel Edge: the same `Auth()` edge function (`edge/instance.ts`) served
 * by two `edge-runtime` processes (as the runtime matrix runs Vercel Edge:
 * e2e/runtime-tools/serve-vercel-edge.mjs bundles a Build Output API function with esbuild and
 * runs it in Vercel's sandbox), sharing the HTTP store through the test bridge in front of
 * REDIS_URL. A rate limit counts across both, a sign-out on one is refused by the other on its
 * next read (strict revocation), and a TOTP code accepted by one is refused by the other. The
 * same requests with the per-isolate memory store are the control: there each instance counts,
 * revokes and remembers spent codes on its own, so the other accepts the code again.
 *
 * No database client runs on Vercel Edge (no TCP), so the two-factor user is not in a database:
 * each instance seeds its own memory adapter with the same row (the test seals the secret once
 * and hands both the sealed value), which holds no single-use state: only the store's marker of
 * the code's step can refuse the replay.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { refusedAcross, signOutAcross, totpReplayAcross } from "../../../e2e/instance-requests.js"
import { installRuntimeTools, toolsDir } from "../../../e2e/runtime-tools/install.mjs"
import { builtPackages } from "../../../e2e/wrangler-dev.js"
import { sealTotpSecret } from "../../core/src/features/two-factor/secret-at-rest.js"
import { newTotpSecret } from "../../core/src/features/two-factor/totp.js"
import { startBridge } from "./bridge.mjs"
import { REDIS_URL } from "./helpers.js"

const ready = REDIS_URL && builtPackages("core", "store-redis", "store-upstash")

describe.skipIf(!ready)(
  "two Vercel Edge instances sharing the HTTP store (needs REDIS_URL and npm run build)",
  async () => {
    if (!ready) return
    await installRuntimeTools()
    const bridge = await startBridge({ redisUrl: REDIS_URL })
    // A Build Output API directory whose one function is the instance, as the adapter writes it.
    const dir = mkdtempSync(join(tmpdir(), "latchkey-edge-instances-"))
    const output = join(dir, ".vercel/output")
    const func = join(output, "functions/_qwik-city.func")
    mkdirSync(func, { recursive: true })
    mkdirSync(join(output, "static"))
    writeFileSync(
      join(output, "config.json"),
      JSON.stringify({ routes: [{ handle: "filesystem" }] }),
    )
    writeFileSync(join(func, ".vc-config.json"), JSON.stringify({ entrypoint: "index.mjs" }))
    // The function as the app's build would write it: one module, dependencies bundled in (the
    // sandbox's own esbuild step then wraps it, as Vercel's deploy does).
    const esbuild: typeof import("esbuild") = await import(
      join(toolsDir, "node_modules/esbuild/lib/main.js")
    )
    await esbuild.build({
      entryPoints: [fileURLToPath(new URL("./edge/instance.ts", import.meta.url))],
      outfile: join(func, "index.mjs"),
      bundle: true,
      format: "esm",
      platform: "browser",
      conditions: ["edge-light", "worker", "browser"],
      logLevel: "error",
    })

    const secret = "a-test-secret-shared-by-both-instances-0123456789"
    // The enrolled user's row, written once as the app's enrolment would write it to a database.
    const totpUser = { id: `user-${crypto.randomUUID()}`, email: "carol@example.com" }
    const totpSecret = newTotpSecret()
    const vars = {
      AUTH_SECRET: secret,
      UPSTASH_URL: bridge.url,
      UPSTASH_TOKEN: bridge.token,
      UPSTASH_PREFIX: `latchkey-edge-instances-${crypto.randomUUID()}:`,
      TOTP_USER_ID: totpUser.id,
      TOTP_EMAIL: totpUser.email,
      TOTP_SEALED: await sealTotpSecret([secret], totpUser.id, totpSecret),
    }
    /** One `edge-runtime` process serving the function; resolves once it listens. */
    const start = (name: string) =>
      new Promise<{ url: string; output(): string; stop(): void }>((resolve, reject) => {
        const env = { ...vars, INSTANCE: name }
        const script = join(toolsDir, "serve-vercel-edge.mjs")
        // Port 0: the server prints the port it got.
        const child = spawn(process.execPath, [script, dir, "0"], {
          env: { PATH: process.env.PATH ?? "", ...env, EDGE_ENV_KEYS: Object.keys(env).join(",") },
          stdio: ["ignore", "pipe", "pipe"],
        })
        let out = ""
        const collect = (chunk: Buffer) => {
          out += chunk
          const url = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1]
          if (url) resolve({ url, output: () => out, stop: () => child.kill() })
        }
        child.stdout.on("data", collect)
        child.stderr.on("data", collect)
        child.once("exit", () => reject(new Error(`edge-runtime exited:\n${out}`)))
      })
    const instances = { a: await start("a"), b: await start("b") }
    afterAll(async () => {
      instances.a.stop()
      instances.b.stop()
      await bridge.close()
      rmSync(dir, { recursive: true, force: true })
    })

    type Instance = "a" | "b"

    async function send(instance: Instance, store: string, path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers)
      headers.set("x-store", store)
      const response = await fetch(`${instances[instance].url}/auth${path}`, {
        ...init,
        headers,
        redirect: "manual",
      })
      expect(response.headers.get("x-instance"), instances[instance].output()).toBe(instance)
      return response
    }

    for (const store of ["upstash", "memory"] as const) {
      const shared = store === "upstash"

      it(
        shared
          ? "a limit of 5 attempts per account counts across both instances"
          : "control, memory store: each instance counts on its own",
        async () => {
          // Shared: attempts 6, 7, 8 are over the limit. Memory: 4 at each, all under it.
          expect(await refusedAcross(send, store, 8)).toBe(shared ? 3 : 0)
        },
      )

      it(
        shared
          ? "strict: a sign-out on one instance is refused by the other on its next read"
          : "control, memory store: the other instance still reads the signed-out session",
        async () => {
          const email = `bob-${crypto.randomUUID()}@example.com`
          const { before, after } = await signOutAcross(send, store, email)
          expect(before?.user?.email).toBe(email)
          if (shared) expect(after).toBeNull()
          else expect(after?.user?.email).toBe(email)
        },
      )

      it(
        shared
          ? "a TOTP code accepted by one instance is refused by the other"
          : "control, memory store: the other instance accepts the same code again",
        async () => {
          const { accepted, replayAccepted, replayError } = await totpReplayAcross(
            send,
            store,
            totpUser.email,
            totpSecret,
          )
          expect(accepted, instances.a.output()).toBe(true)
          expect(replayAccepted, instances.b.output()).toBe(!shared)
          if (shared) expect(replayError).toBe("InvalidTwoFactorCode")
        },
      )
    }
  },
)
