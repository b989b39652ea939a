/** Client build of the demo; `adapters/node-server/vite.config.ts` extends it for the server. */
import { fileURLToPath } from "node:url"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { qwikCity } from "@builder.io/qwik-city/vite"
import { defineConfig } from "vite"

export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  resolve: { alias: { "~": fileURLToPath(new URL("./src", import.meta.url)) } },
  // No server-only settings: `routeAuth$` keeps the auth config (and `src/auth.ts`, `lib/db.ts`,
  // `lib/users.ts` behind it) out of the client build.
  build: { target: "es2022" },
  preview: { headers: { "Cache-Control": "public, max-age=600" } },
}))
