/** Client build of the demo; `adapters/node-server/vite.config.ts` extends it for the server. */
import { fileURLToPath } from "node:url"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { qwikCity } from "@builder.io/qwik-city/vite"
import { defineConfig } from "vite"

// `nodemailer`: the core loads it only to send over SMTP, which the demo never does (dev mailbox).
const serverOnly = [/^node:/, "@electric-sql/pglite", "@latchkey/adapter-postgres", "nodemailer"]

export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  resolve: { alias: { "~": fileURLToPath(new URL("./src", import.meta.url)) } },
  build: {
    target: "es2022",
    // The config QRL of `QwikAuth$` (and so `src/auth.ts` → `lib/db.ts`, `lib/passwords.ts`) is
    // a lazy segment the browser never loads; leaving server-only modules as imports keeps the
    // client build from bundling (or failing on) them.
    rollupOptions: { external: serverOnly },
  },
  preview: { headers: { "Cache-Control": "public, max-age=600" } },
}))
