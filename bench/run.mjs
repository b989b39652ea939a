// `npm run bench`: every suite, side by side with @auth/core, in one process.
import os from "node:os"
import { benchAccessToken } from "./access-token.mjs"
import { benchAuthSession } from "./auth-session.mjs"
import { benchBundles } from "./bundle.mjs"
import { benchDatabaseSession } from "./db-session.mjs"
import { benchDrizzleSession } from "./drizzle-session.mjs"
import { benchOrganizations } from "./organizations.mjs"
import { benchPasskeys } from "./passkey.mjs"
import { benchPasswordHash } from "./password-runtimes.mjs"
import { benchPeers } from "./peers.mjs"
import { benchPeersBreakdown } from "./peers-breakdown.mjs"
import { benchQwik2Pages, benchQwikPages } from "./qwik-page.mjs"
import { benchRevocation } from "./revocation.mjs"
import { benchTokensOffNode } from "./runtimes.mjs"
import { benchSignIn } from "./sign-in.mjs"
import { benchStores } from "./stores.mjs"
import { benchTokens } from "./token.mjs"
import { benchTwoFactor } from "./two-factor.mjs"

// `npm run bench` runs every suite; `npm run bench peers` one; `npm run bench two-factor,peers` several.
const only = process.argv[2]?.split(",")
const suites = {
  tokens: benchTokens,
  "tokens-web": benchTokensOffNode,
  "auth-session": benchAuthSession,
  "sign-in": benchSignIn,
  "db-session": benchDatabaseSession,
  "drizzle-session": benchDrizzleSession,
  "qwik-page": benchQwikPages,
  "qwik2-page": benchQwik2Pages,
  "access-token": benchAccessToken,
  revocation: benchRevocation,
  stores: benchStores,
  "two-factor": benchTwoFactor,
  organizations: benchOrganizations,
  peers: benchPeers,
  "peers-breakdown": benchPeersBreakdown,
  "password-hash": benchPasswordHash,
  bundle: benchBundles,
  // Last: @auth/core 0.41 remembers in a module-level flag that it has seen a WebAuthn provider,
  // and from then on fails every config of the process without `experimental.enableWebAuthn`
  // ("Configuration") — the other suites' Auth.js apps among them.
  passkey: benchPasskeys,
}

const unknown = only?.filter((name) => !(name in suites)) ?? []
if (unknown.length > 0) {
  console.error(
    `No bench suite ${unknown.join(", ")}: the suites are ${Object.keys(suites).join(", ")}`,
  )
  process.exit(2)
}
console.log(
  `# Latchkey bench — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
)
for (const [name, suite] of Object.entries(suites)) {
  if (!only || only.includes(name)) await suite()
}
// Qwik 2's core (imported by the qwik2-page breakdown) opens MessagePorts that keep the event loop
// alive after the last suite: end the run when the suites have.
process.exit(0)
