import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite"
import { extendConfig } from "@builder.io/qwik-city/vite"
import baseConfig from "../../vite.config"

export default extendConfig(baseConfig, () => ({
  build: {
    ssr: true,
    rollupOptions: { input: ["src/entry.node-server.tsx", "@qwik-city-plan"] },
  },
  // Loaded from node_modules at run time: the adapter reads its migration files next to itself.
  ssr: { external: ["@latchkey/adapter-postgres", "@electric-sql/pglite"] },
  plugins: [nodeServerAdapter({ name: "node-server" })],
}))
