/**
 * `npx latchkey init` and `npx latchkey migrate`, run as a user runs them: the bin spawned in a
 * copy of Qwik's empty starter (v1 `e2e/fixtures/starter`, v2 `e2e/fixtures/starter-v2`) in a
 * temp dir. The app's `node_modules` links to this repository's, so the files init writes are
 * type-checked (`tsc --noEmit`) against the built workspace packages (the bin's Vite step and
 * `tsc` need `npm run build` of core, adapter-postgres, qwik and qwik2, as `npm test` runs it),
 * and the migrations run on real PGlite (and PostgreSQL when DATABASE_URL is set).
 */

import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { parseEnv } from "node:util"
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { checkModule } from "../src/vite-checks.js"

const bin = fileURLToPath(new URL("../bin/latchkey.mjs", import.meta.url))
const root = fileURLToPath(new URL("../../..", import.meta.url))
const modules = join(root, "node_modules")
const tsc = join(modules, "typescript/bin/tsc")

const scratch = mkdtempSync(join(tmpdir(), "latchkey-init-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Starter = "starter" | "starter-v2"

/** A copy of the starter whose `node_modules` resolves to this repository's packages. */
function starterApp(starter: Starter): string {
  const dir = mkdtempSync(join(scratch, `${starter}-`))
  cpSync(join(root, "e2e/fixtures", starter), dir, { recursive: true })
  if (starter === "starter") {
    symlinkSync(modules, join(dir, "node_modules"))
  } else {
    // Qwik 2 and Vite 8 are installed under packages/qwik2 only: the root's, with those on top.
    const own = join(root, "packages/qwik2/node_modules")
    mkdirSync(join(dir, "node_modules"))
    for (const entry of readdirSync(modules)) {
      const from = ["vite", "@qwik.dev"].includes(entry) ? own : modules
      symlinkSync(join(from, entry), join(dir, "node_modules", entry))
    }
    if (!existsSync(join(dir, "node_modules/@qwik.dev"))) {
      symlinkSync(join(own, "@qwik.dev"), join(dir, "node_modules/@qwik.dev"))
    }
  }
  return dir
}

/** The environment of a user's shell: no DATABASE_URL unless a test passes one. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...rest } = process.env
  return { ...rest, ...extra }
}

function latchkey(dir: string, args: string[], extraEnv: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: env(extraEnv),
    stdio: ["ignore", "pipe", "pipe"],
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** Every file of the app but its dependencies and database, with a hash of its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  function walk(at: string) {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (["node_modules", ".data"].includes(entry.name)) continue
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else
        files[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex")
    }
  }
  walk(dir)
  return files
}

/** The app's own `tsc --noEmit`, on its sources (the starter's `vite.config.ts` imports
 * `vite-tsconfig-paths`, which this repository does not install). */
function typeCheck(dir: string): string {
  writeFileSync(
    join(dir, "tsconfig.check.json"),
    JSON.stringify({
      extends: "./tsconfig.json",
      compilerOptions: { incremental: false },
      include: ["src", "./*.d.ts"],
    }),
  )
  const run = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.check.json"], {
    cwd: dir,
    encoding: "utf8",
  })
  return `${run.stdout}${run.stderr}`.trim()
}

function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), "utf8")
}

function devDependencies(dir: string): Record<string, string> {
  return JSON.parse(read(dir, "package.json")).devDependencies
}

const jwtArgs = ["init", "--yes", "--no-install", "--methods", "github", "--sessions", "jwt"]

const choices: [Starter, string, string][] = [
  ["starter", "password,passkey,email", "pglite"],
  ["starter", "github,google,oidc", "jwt"],
  ["starter", "password,github", "postgres"],
  ["starter-v2", "password,passkey,email,github,google,oidc", "pglite"],
  ["starter-v2", "github", "jwt"],
]

describe("latchkey init", () => {
  it.each(choices)(
    "on %s with --methods %s --sessions %s: writes the app, which type-checks, and a second run changes nothing",
    (starter, methods, sessions) => {
      const dir = starterApp(starter)
      const args = ["init", "--yes", "--no-install", "--methods", methods, "--sessions", sessions]
      const first = latchkey(dir, args)
      expect(first.stderr).toBe("")
      expect(first.status).toBe(0)

      const binding = starter === "starter" ? "@latchkey/qwik" : "@latchkey/qwik2"
      const deps = devDependencies(dir)
      expect(deps["@latchkey/core"]).toBe("^0.1.0")
      expect(deps[binding]).toBe("^0.1.0")
      expect("@latchkey/adapter-postgres" in deps).toBe(sessions !== "jwt")
      expect("@electric-sql/pglite" in deps).toBe(sessions === "pglite")
      expect("pg" in deps).toBe(sessions === "postgres")

      const plugin = read(dir, "src/routes/plugin@auth.ts")
      expect(plugin).toMatch(new RegExp(`import \\{ [^}]*routeAuth\\$[^}]* \\} from "${binding}"`))
      for (const method of methods.split(",")) {
        const module = method === "oidc" ? "oauth" : method
        expect(plugin).toContain(`from "@latchkey/core/providers/${module}"`)
      }
      expect(plugin.includes("adapter,")).toBe(sessions !== "jwt")
      expect(plugin.includes("enableWebAuthn: true")).toBe(methods.includes("passkey"))
      expect(existsSync(join(dir, "src/lib/db.ts"))).toBe(sessions !== "jwt")
      const account = read(dir, "src/routes/account/index.tsx")
      expect(account).toContain(starter === "starter" ? '"@builder.io/qwik"' : '"@qwik.dev/core"')
      // With a password: its section and the address change, on the account loader, which the
      // page exports and the plugin does not (Qwik City would run it on every page). On Qwik 2
      // the page also exports the session (templates.mjs, QWIK2_SESSION_ON_PAGE).
      const password = methods.split(",").includes("password")
      for (const action of ["useChangePassword", "useSetPassword", "useRemovePassword"]) {
        expect(account.includes(action)).toBe(password)
      }
      expect(account.includes("<Form action={change}>")).toBe(password)
      // With a database: every way in and two-factor sign-in, on loaders the page exports.
      const accounts = sessions !== "jwt"
      expect(account.includes("export const useAccount = accountLoaders.useAccount")).toBe(accounts)
      expect(account.includes("<TwoFactorSection />")).toBe(accounts)
      expect(account.includes("<WaysIn />")).toBe(accounts)
      expect(account.includes("A sign-in link mailed to")).toBe(methods.includes("email"))
      expect(plugin.includes("twoFactor: TwoFactor({")).toBe(accounts)
      expect(plugin).not.toMatch(/export const \{[^}]*useTwoFactorStatus/)
      expect(account.includes("export const useSessionOfPage = useSession")).toBe(
        accounts && starter !== "starter",
      )
      // Mail in development without a server: kept, and listed on a loopback-only page.
      const mails = password || methods.includes("email")
      // With accounts and mail: organizations, invitations mailed as the other mails (the dev
      // mailbox in development, EMAIL_SERVER else), the section on the account page on a loader
      // the page exports (the plugin hands it over in accountLoaders).
      const organizations = accounts && mails
      expect(plugin.includes("organizations: {")).toBe(organizations)
      expect(plugin.includes("? devMailbox.sendInvitation")).toBe(organizations)
      expect(plugin.includes("invitationMessage(invitation)")).toBe(organizations)
      expect(plugin.includes("useOrganizations: organizations.useOrganizations")).toBe(
        organizations,
      )
      expect(plugin).not.toMatch(/export const \{[^}]*useOrganizations/)
      for (const action of [
        "useCreateOrganization",
        "useSetActiveOrganization",
        "useInviteMember",
        "useCancelInvitation",
        "useUpdateMemberRole",
        "useRemoveMember",
        "useLeaveOrganization",
      ]) {
        expect(plugin.includes(`  ${action},`)).toBe(organizations)
        expect(account.includes(`  ${action},`)).toBe(organizations)
      }
      expect(
        account.includes("export const useOrganizations = accountLoaders.useOrganizations"),
      ).toBe(organizations)
      expect(account.includes("<OrganizationsSection />")).toBe(organizations)
      expect(plugin.includes("import.meta.env.DEV && !mail.server")).toBe(mails)
      expect(existsSync(join(dir, "src/routes/dev/mailbox/index.tsx"))).toBe(mails)
      if (mails) {
        expect(read(dir, "src/routes/dev/mailbox/index.tsx")).toContain(
          "export const onRequest = devMailboxGuard(import.meta.env.DEV)",
        )
      }
      expect(checkModule(join(dir, "src/routes/plugin@auth.ts"), plugin, dir)).toEqual([])
      // The plugin goes into Qwik 1's config only (@latchkey/qwik2 has none; routeAuth$ needs none).
      expect(read(dir, "vite.config.ts").includes("latchkey()")).toBe(starter === "starter")
      if (sessions === "pglite") {
        // The README quick start's database module, word for word.
        expect(read(dir, "src/lib/db.ts")).toBe(
          readFileSync(join(root, "e2e/fixtures/quickstart/src/lib/db.ts"), "utf8"),
        )
        expect(first.stdout).toMatch(/migrations: PGlite in \.\/\.data\/auth: applied migrations/)
        expect(read(dir, ".gitignore").split("\n")).toContain(".data/")
      }
      if (sessions === "postgres") expect(first.stdout).toContain("skipped, no DATABASE_URL")
      expect(first.stdout).toContain("Next steps:")

      const before = snapshot(dir)
      const second = latchkey(dir, args)
      expect(second.status).toBe(0)
      expect(second.stdout).not.toMatch(/: (created|added|overwritten)|kept /)
      expect(snapshot(dir)).toEqual(before)

      expect(typeCheck(dir)).toBe("")
    },
    120_000,
  )

  it("writes AUTH_SECRET (and nothing that trusts the Host header) to .env only when absent, and .env to .gitignore once", () => {
    // create-qwik's own .gitignore already lists .env: left exactly as it was.
    const starter = starterApp("starter")
    const starterIgnore = read(starter, ".gitignore")
    expect(starterIgnore.split("\n")).toContain(".env")
    latchkey(starter, ["init", "--yes", "--no-install", "--methods", "github", "--sessions", "jwt"])
    expect(read(starter, ".gitignore")).toBe(starterIgnore)

    const fresh = starterApp("starter")
    rmSync(join(fresh, ".gitignore"))
    latchkey(fresh, ["init", "--yes", "--no-install", "--methods", "github", "--sessions", "jwt"])
    const written = parseEnv(read(fresh, ".env"))
    expect(written.AUTH_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // No AUTH_URL pinned to the dev server's port (`npm run preview` serves on another), and no
    // AUTH_TRUST_HOST: Bun reads .env in production too, and the core takes loopback hosts as
    // they are without it.
    expect(written).toEqual({ AUTH_SECRET: written.AUTH_SECRET })
    expect(statSync(join(fresh, ".env")).mode & 0o777).toBe(0o600)
    expect(read(fresh, ".gitignore")).toBe(".env\n")

    const own = starterApp("starter")
    writeFileSync(join(own, ".env"), "OTHER=1")
    writeFileSync(join(own, ".gitignore"), "node_modules\n/.env\n")
    const run = latchkey(own, [
      "init",
      "--yes",
      "--no-install",
      "--methods",
      "github",
      "--sessions",
      "jwt",
    ])
    expect(run.stdout).toContain(".env: added AUTH_SECRET")
    expect(run.stdout).not.toMatch(/AUTH_SECRET=/)
    expect(read(own, ".env")).toMatch(/^OTHER=1\n#[^\n]*\nAUTH_SECRET=[A-Za-z0-9_-]{43}\n$/)
    expect(read(own, ".gitignore")).toBe("node_modules\n/.env\n")

    // An AUTH_URL of the user's (or of an older init) stays the app's URL: nothing added.
    const pinned = starterApp("starter")
    writeFileSync(join(pinned, ".env"), "AUTH_SECRET=mine\nAUTH_URL=https://app.example\n")
    expect(latchkey(pinned, jwtArgs).stdout).toContain(".env: has AUTH_SECRET")
    expect(read(pinned, ".env")).toBe("AUTH_SECRET=mine\nAUTH_URL=https://app.example\n")
  })

  it("writes .env readable by its owner only, also when it adds to one the user made", () => {
    const dir = starterApp("starter")
    writeFileSync(join(dir, ".env"), "OTHER=1\n", { mode: 0o644 })
    chmodSync(join(dir, ".env"), 0o644)
    expect(latchkey(dir, jwtArgs).status).toBe(0)
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600)
    expect(parseEnv(read(dir, ".env")).OTHER).toBe("1")
  })

  it("refuses a .env linked out of the app, or to nothing, and writes nothing", () => {
    const outside = mkdtempSync(join(scratch, "elsewhere-"))
    const shared = join(outside, "shared.env")
    writeFileSync(shared, "SHARED=1\n")
    const linked = starterApp("starter")
    symlinkSync(shared, join(linked, ".env"))
    const before = snapshot(linked)
    const out = latchkey(linked, jwtArgs)
    expect(out.status).toBe(1)
    expect(out.stderr).toContain(`.env is a link to ${realpathSync(shared)}, outside this app`)
    expect(out.stderr).toContain("nothing was written")
    expect(read(outside, "shared.env")).toBe("SHARED=1\n")
    expect(snapshot(linked)).toEqual(before)

    const dangling = starterApp("starter")
    symlinkSync(join(outside, "missing.env"), join(dangling, ".env"))
    const none = latchkey(dangling, jwtArgs)
    expect(none.status).toBe(1)
    expect(none.stderr).toContain(".env is a link to a file that does not exist")
    expect(existsSync(join(outside, "missing.env"))).toBe(false)

    // A link that stays in the app is the app's own file: written through, 0600.
    const inside = starterApp("starter")
    writeFileSync(join(inside, "local.env"), "")
    symlinkSync("local.env", join(inside, ".env"))
    expect(latchkey(inside, jwtArgs).status).toBe(0)
    expect(parseEnv(read(inside, "local.env")).AUTH_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(statSync(join(inside, "local.env")).mode & 0o777).toBe(0o600)
  })

  it("refuses a .env that git tracks, saying how to stop tracking it", () => {
    const dir = starterApp("starter")
    function git(...args: string[]) {
      return spawnSync("git", args, { cwd: dir, encoding: "utf8", env: env() })
    }
    git("init", "-q")
    writeFileSync(join(dir, ".env"), "OTHER=1\n")
    git("add", "-f", ".env")
    const before = snapshot(dir)
    const tracked = latchkey(dir, jwtArgs)
    expect(tracked.status).toBe(1)
    expect(tracked.stderr).toContain(".env is tracked by git")
    expect(tracked.stderr).toContain("git rm --cached .env")
    expect(read(dir, ".env")).toBe("OTHER=1\n")
    expect(snapshot(dir)).toEqual(before)

    git("rm", "-q", "--cached", ".env")
    expect(latchkey(dir, jwtArgs).status).toBe(0)
    expect(parseEnv(read(dir, ".env")).AUTH_SECRET).toBeDefined()
  })

  it("leaves a file the user changed and prints its diff; --force replaces it", () => {
    const dir = starterApp("starter")
    const args = ["init", "--yes", "--no-install", "--methods", "github", "--sessions", "jwt"]
    latchkey(dir, args)
    const path = join(dir, "src/routes/plugin@auth.ts")
    const generated = readFileSync(path, "utf8")
    const mine = generated.replace(
      "GitHub(),",
      "GitHub({ allowDangerousEmailAccountLinking: false }),",
    )
    writeFileSync(path, mine)

    const kept = latchkey(dir, args)
    expect(kept.status).toBe(0)
    expect(readFileSync(path, "utf8")).toBe(mine)
    expect(kept.stdout).toContain("kept src/routes/plugin@auth.ts")
    expect(kept.stdout).toContain("-    GitHub({ allowDangerousEmailAccountLinking: false }),")
    expect(kept.stdout).toContain("+    GitHub(), // AUTH_GITHUB_ID, AUTH_GITHUB_SECRET")
    expect(kept.stdout).toContain("--force")

    const forced = latchkey(dir, [...args, "--force"])
    expect(forced.status).toBe(0)
    expect(forced.stdout).toContain("src/routes/plugin@auth.ts: overwritten")
    expect(readFileSync(path, "utf8")).toBe(generated)
  })

  it("--dry-run says what it would do and writes nothing", () => {
    const dir = starterApp("starter")
    const before = snapshot(dir)
    const run = latchkey(dir, ["init", "--yes", "--dry-run", "--methods", "password"])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain("src/routes/plugin@auth.ts: would be created")
    expect(run.stdout).toContain("vite.config.ts: would add latchkey()")
    expect(run.stdout).toContain(".env: would be added AUTH_SECRET")
    expect(snapshot(dir)).toEqual(before)
    expect(existsSync(join(dir, ".data"))).toBe(false)
  })

  it("refuses methods that need a database with JWT sessions, and unknown methods, writing nothing", () => {
    const dir = starterApp("starter")
    const before = snapshot(dir)
    const jwt = latchkey(dir, [
      "init",
      "--yes",
      "--methods",
      "password,github",
      "--sessions",
      "jwt",
    ])
    expect(jwt.status).toBe(1)
    expect(jwt.stderr).toContain(
      "password keep accounts in a database: choose --sessions pglite or postgres",
    )
    const unknown = latchkey(dir, ["init", "--yes", "--methods", "facebook"])
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain("unknown sign-in method facebook")
    expect(snapshot(dir)).toEqual(before)
  })

  // script(1) runs the bin on a pseudo-terminal, as a person would; the answers are typed ahead.
  const hasScript = spawnSync("script", ["--version"]).status === 0
  it.skipIf(!hasScript)("asks on a terminal, asking again after a wrong answer", () => {
    const dir = starterApp("starter")
    const run = spawnSync(
      "script",
      ["-qec", `"${process.execPath}" "${bin}" init --no-install`, "/dev/null"],
      {
        cwd: dir,
        encoding: "utf8",
        env: env(),
        input: "github,nope\ngithub,google\nmars\nnode\nredis\njwt\n",
      },
    )
    expect(run.status).toBe(0)
    const output = run.stdout.replaceAll("\r", "")
    expect(output).toContain("unknown sign-in method nope")
    expect(output).toContain("use one of node, bun, deno, cloudflare-pages, vercel-edge, netlify")
    expect(output).toContain("use one of jwt, pglite, postgres")
    expect(output).toContain("methods github, google; sessions jwt")
    expect(read(dir, "src/routes/plugin@auth.ts")).toContain(
      "--methods github,google --sessions jwt",
    )
  })

  it("--target names the runtime's adapter and start command in the next steps", () => {
    for (const [target, adapter, start] of [
      ["node", "node-server", "node server/entry.node-server"],
      ["bun", "bun", "bun server/entry.bun.js"],
      ["deno", "deno", "deno run --allow-net --allow-read --allow-env server/entry.deno.js"],
    ]) {
      const dir = starterApp("starter")
      // PGlite is the default where there is a file system (once: its migrations take a while).
      const flags = target === "node" ? [] : ["--methods", "github", "--sessions", "jwt"]
      const run = latchkey(dir, ["init", "--yes", "--no-install", "--target", target!, ...flags])
      expect(run.stderr).toBe("")
      if (target === "node") expect(run.stdout).toContain("sessions pglite; target node")
      else expect(run.stdout).toContain(`target ${target}`)
      expect(run.stdout).toContain(`\`npm run qwik add ${adapter}\``)
      expect(run.stdout).toContain(start)
    }
    const edge = starterApp("starter-v2")
    const args = ["init", "--yes", "--no-install", "--target", "vercel-edge", "--methods", "github"]
    const run = latchkey(edge, args)
    expect(run.status).toBe(0)
    // JWT sessions by default where there is no file system.
    expect(run.stdout).toContain("sessions jwt; target vercel-edge")
    expect(read(edge, "src/routes/plugin@auth.ts")).toContain("--target vercel-edge")
  })

  it.each([
    ["starter", "password,passkey"],
    ["starter-v2", "password,email,github"],
  ] as const)(
    "--target cloudflare-pages on %s (--methods %s): D1 through Drizzle, mail through Resend, wrangler's .dev.vars; the app type-checks",
    (starter, methods) => {
      const dir = starterApp(starter)
      const args = [
        "init",
        "--yes",
        "--no-install",
        "--target",
        "cloudflare-pages",
        "--methods",
        methods,
      ]
      const run = latchkey(dir, args)
      expect(run.stderr).toBe("")
      expect(run.stdout).toContain("sessions d1; target cloudflare-pages")
      const deps = devDependencies(dir)
      expect(Object.keys(deps)).toEqual(
        expect.arrayContaining(["@latchkey/adapter-drizzle", "drizzle-orm", "drizzle-kit"]),
      )
      expect("@latchkey/adapter-postgres" in deps).toBe(false)
      const plugin = read(dir, "src/routes/plugin@auth.ts")
      expect(plugin).toContain("DrizzleAdapter(drizzle(DB, { schema }))")
      expect(plugin).toContain("sendPasswordMail: mail.sendPasswordMail")
      // Invitations to an organization go through Resend too.
      expect(plugin).toContain("mail.send({ to: invitation.to, ...invitationMessage(invitation) })")
      expect(read(dir, "src/routes/account/index.tsx")).toContain("<OrganizationsSection />")
      expect(plugin).toContain("No D1 binding DB")
      expect(plugin).not.toContain("devMailbox")
      expect(existsSync(join(dir, "src/routes/dev/mailbox/index.tsx"))).toBe(false)
      expect(existsSync(join(dir, "src/lib/db.ts"))).toBe(false)
      // The schema of the features the config enables, from the app's own adapter-drizzle.
      expect(run.stdout).toMatch(
        /schema: Wrote src\/db\/auth-schema\.ts \(sqlite; features: [^)]*two-factor, organizations/,
      )
      expect(read(dir, "wrangler.toml")).toContain('binding = "DB"')
      expect(read(dir, "drizzle.config.ts")).toContain('schema: "./src/db/auth-schema.ts"')
      // wrangler pages dev reads .dev.vars: the secret goes there, 0600, and out of git.
      expect(existsSync(join(dir, ".env"))).toBe(false)
      expect(parseEnv(read(dir, ".dev.vars")).AUTH_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(statSync(join(dir, ".dev.vars")).mode & 0o777).toBe(0o600)
      expect(read(dir, ".gitignore").split("\n")).toEqual(
        expect.arrayContaining([".dev.vars", ".wrangler/"]),
      )
      expect(run.stdout).toContain("npx wrangler d1 migrations apply auth --local")
      expect(run.stdout).toContain("AUTH_RESEND_KEY")

      const before = snapshot(dir)
      expect(latchkey(dir, args).stdout).not.toMatch(/: (created|added|overwritten)|kept /)
      expect(snapshot(dir)).toEqual(before)
      expect(typeCheck(dir)).toBe("")
    },
    120_000,
  )

  it("refuses on an edge runtime what cannot run there, naming the part, writing nothing", () => {
    const dir = starterApp("starter")
    const before = snapshot(dir)
    const refusals: [string[], string][] = [
      [
        ["--target", "cloudflare-pages", "--sessions", "pglite"],
        "--sessions pglite cannot run on Cloudflare Pages (workerd): workerd has no file system for PGlite",
      ],
      [
        ["--target", "netlify", "--sessions", "postgres"],
        "--sessions postgres cannot run on Netlify Edge Functions: Netlify's Edge Functions have no file system for PGlite and no TCP sockets for pg",
      ],
      [
        ["--target", "vercel-edge", "--methods", "password"],
        "password keep accounts in a database, and init writes none that runs on Vercel Edge",
      ],
      [["--target", "mars"], "--target mars: use one of node, bun, deno"],
      [
        ["--target", "deno", "--sessions", "pglite"],
        "--sessions pglite cannot run on Deno: Qwik City's Deno adapter bundles the server without Node's built-in modules",
      ],
      [["--sessions", "d1"], "--sessions d1 is Cloudflare's database"],
      [
        ["--target", "cloudflare-pages", "--sessions", "jwt", "--methods", "password"],
        "password keep accounts in a database: choose --sessions d1",
      ],
    ]
    for (const [flags, message] of refusals) {
      const run = latchkey(dir, ["init", "--yes", "--no-install", ...flags])
      expect(run.status).toBe(1)
      expect(run.stderr).toContain(message)
    }
    expect(snapshot(dir)).toEqual(before)
  })

  it("refuses a directory that is not a Qwik app", () => {
    const dir = mkdtempSync(join(scratch, "plain-"))
    writeFileSync(join(dir, "package.json"), '{ "name": "plain" }\n')
    const run = latchkey(dir, ["init", "--yes"])
    expect(run.status).toBe(1)
    expect(run.stderr).toContain("neither @builder.io/qwik (Qwik 1) nor @qwik.dev/core (Qwik 2)")
  })

  it("--install-from names the npm pack tarballs in package.json; the lock file names the package manager", () => {
    const dir = starterApp("starter-v2")
    const packs = mkdtempSync(join(scratch, "packs-"))
    for (const name of [
      "latchkey-core-0.1.0.tgz",
      "latchkey-qwik-0.1.0.tgz",
      "latchkey-qwik2-0.1.0.tgz",
    ]) {
      writeFileSync(join(packs, name), "")
    }
    writeFileSync(join(dir, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n")
    const run = latchkey(dir, [
      "init",
      "--yes",
      "--no-install",
      "--methods",
      "github",
      "--sessions",
      "jwt",
      "--install-from",
      packs,
    ])
    expect(run.stdout).toContain("(@latchkey/qwik2, pnpm)")
    expect(run.stdout).toContain("run `pnpm install`")
    const deps = devDependencies(dir)
    // Relative to the app, as npm writes them: package.json names no directory of this machine.
    const rel = relative(dir, packs)
    expect(deps["@latchkey/core"]).toBe(`file:${rel}/latchkey-core-0.1.0.tgz`)
    expect(deps["@latchkey/qwik2"]).toBe(`file:${rel}/latchkey-qwik2-0.1.0.tgz`)
    expect(read(dir, "package.json")).not.toContain(packs)
  })
})

/** The tables of the Auth.js schema that the migrations create. */
async function pgliteTables(dir: string): Promise<string[]> {
  const db = new PGlite(dir)
  try {
    const { rows } = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    )
    return rows.map((row) => row.table_name)
  } finally {
    await db.close()
  }
}

describe("latchkey migrate", () => {
  it("migrates the PGlite directory of src/lib/db.ts, then finds it up to date", async () => {
    const dir = starterApp("starter")
    latchkey(dir, [
      "init",
      "--yes",
      "--no-install",
      "--methods",
      "password",
      "--sessions",
      "pglite",
    ])
    // The app moved its database: migrate follows src/lib/db.ts.
    const db = join(dir, "src/lib/db.ts")
    writeFileSync(db, read(dir, "src/lib/db.ts").replace("./.data/auth", "./.data/elsewhere"))
    const first = latchkey(dir, ["migrate"])
    expect(first.stderr).toBe("")
    expect(first.stdout).toMatch(/^PGlite in \.\/\.data\/elsewhere: applied migrations 1, /)
    expect(await pgliteTables(join(dir, ".data/elsewhere"))).toEqual(
      expect.arrayContaining([
        "users",
        "accounts",
        "sessions",
        "verification_token",
        "password_hashes",
      ]),
    )
    const again = latchkey(dir, ["migrate"])
    expect(again.stdout).toBe(
      "PGlite in ./.data/elsewhere: the schema is up to date (nothing applied).\n",
    )
  }, 120_000)

  it("says how to name a database when none is configured", () => {
    const dir = starterApp("starter")
    const run = latchkey(dir, ["migrate"])
    expect(run.status).toBe(1)
    expect(run.stderr).toContain("no database configured. Set DATABASE_URL")
  })

  const databaseUrl = process.env.DATABASE_URL
  it.skipIf(!databaseUrl)("migrates PostgreSQL at DATABASE_URL (from .env), once", async () => {
    const schema = `latchkey_init_${crypto.randomUUID().replaceAll("-", "")}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    try {
      await admin.query(`CREATE SCHEMA ${schema}`)
      const dir = starterApp("starter")
      const url = new URL(databaseUrl!)
      url.searchParams.set("options", `-c search_path=${schema}`)
      writeFileSync(join(dir, ".env"), `DATABASE_URL=${url}\n`)
      const first = latchkey(dir, ["migrate"])
      expect(first.stderr).toBe("")
      expect(first.stdout).toMatch(/^PostgreSQL at DATABASE_URL .*: applied migrations 1, /)
      const { rows } = await admin.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
        [schema],
      )
      expect(rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(["users", "sessions"]),
      )
      expect(latchkey(dir, ["migrate"]).stdout).toContain("up to date (nothing applied)")
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await admin.end()
    }
  })
})
