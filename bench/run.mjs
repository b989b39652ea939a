// `npm run bench`: every suite, side by side with @auth/core, in one process.
import os from "node:os"
import { benchTokens } from "./token.mjs"

console.log(
  `# Latchkey bench — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
)
await benchTokens()
