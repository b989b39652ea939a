import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import Apple from "../../src/providers/apple.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import Keycloak from "../../src/providers/keycloak.js"
import Nodemailer from "../../src/providers/nodemailer.js"

describe("provider types in a config", () => {
  it("accept every kind of provider, called or passed uncalled, without casts", () => {
    const config = {
      providers: [
        GitHub,
        Google({ clientId: "id", clientSecret: "secret" }),
        Apple({ clientId: "id", clientSecret: "secret" }),
        Keycloak({ issuer: "https://kc.example.com/realms/app" }),
        Credentials({ credentials: { email: {} }, authorize: async () => null }),
        Nodemailer({ server: "smtp://127.0.0.1:2525", from: "auth@example.com" }),
        { id: "custom", name: "Custom", type: "oidc" as const, issuer: "https://id.example.com" },
      ],
    } satisfies AuthConfig
    expect(config.providers).toHaveLength(7)
  })
})
