/**
 * Every preset: its endpoints/scopes as documented by the provider, and its `profile()` turning
 * a documented sample response into `{ id, name, email, image }`.
 */
import { describe, expect, it } from "vitest"
import { resolveOAuthProvider } from "../../src/features/oauth/client/provider.js"
import type {
  OAuthProviderConfig,
  TokenSet,
} from "../../src/features/oauth/client/provider-config.js"
import Apple from "../../src/providers/apple.js"
import Auth0 from "../../src/providers/auth0.js"
import Authentik from "../../src/providers/authentik.js"
import Cognito from "../../src/providers/cognito.js"
import Discord from "../../src/providers/discord.js"
import Facebook from "../../src/providers/facebook.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import Keycloak from "../../src/providers/keycloak.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Okta from "../../src/providers/okta.js"
import Slack from "../../src/providers/slack.js"
import Twitch, { conformTwitchTokenResponse } from "../../src/providers/twitch.js"
import Zitadel from "../../src/providers/zitadel.js"

const creds = { clientId: "id", clientSecret: "secret" }
const tokens: TokenSet = { access_token: "at", token_type: "bearer" }

// biome-ignore lint/suspicious/noExplicitAny: samples are raw JSON
async function mapped(provider: OAuthProviderConfig<any>, sample: unknown) {
  return resolveOAuthProvider(provider).profile(sample as never, tokens)
}

interface Case {
  // biome-ignore lint/suspicious/noExplicitAny: each preset has its own profile type
  provider: OAuthProviderConfig<any>
  id: string
  type: "oauth" | "oidc"
  issuer?: string
  authorization?: string
  scope?: string
  sample: unknown
  user: { id: string; name: string | null; email: string | null; image: string | null }
  verified?: boolean
}

const cases: Case[] = [
  {
    // https://docs.github.com/en/rest/users/users#get-the-authenticated-user
    provider: GitHub(creds),
    id: "github",
    type: "oauth",
    authorization: "https://github.com/login/oauth/authorize",
    scope: "read:user user:email",
    sample: {
      login: "octocat",
      id: 1,
      node_id: "MDQ6VXNlcjE=",
      avatar_url: "https://github.com/images/error/octocat_happy.gif",
      gravatar_id: "",
      type: "User",
      name: "monalisa octocat",
      company: "GitHub",
      email: "octocat@github.com",
    },
    user: {
      id: "1",
      name: "monalisa octocat",
      email: "octocat@github.com",
      image: "https://github.com/images/error/octocat_happy.gif",
    },
    // The public email of /user proves nothing; only the primary, verified one of /user/emails
    // (which the preset's userinfo request adds as `email_verified`) does.
    verified: false,
  },
  {
    // https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
    provider: Google(creds),
    id: "google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    sample: {
      iss: "https://accounts.google.com",
      azp: "1234987819200.apps.googleusercontent.com",
      aud: "1234987819200.apps.googleusercontent.com",
      sub: "10769150350006150715113082367",
      at_hash: "HK6E_P6Dh8Y93mRNtsDB1Q",
      hd: "example.com",
      email: "jsmith@example.com",
      email_verified: true,
      iat: 1353601026,
      exp: 1353604926,
      name: "John Smith",
      picture: "https://lh3.googleusercontent.com/a/photo.jpg",
    },
    user: {
      id: "10769150350006150715113082367",
      name: "John Smith",
      email: "jsmith@example.com",
      image: "https://lh3.googleusercontent.com/a/photo.jpg",
    },
    verified: true,
  },
  {
    // https://docs.gitlab.com/api/users/#retrieve-the-current-user
    provider: GitLab(creds),
    id: "gitlab",
    type: "oauth",
    authorization: "https://gitlab.com/oauth/authorize",
    scope: "read_user",
    sample: {
      id: 1,
      username: "john_smith",
      email: "john@example.com",
      name: "John Smith",
      state: "active",
      avatar_url: "http://localhost:3000/uploads/user/avatar/1/index.jpg",
      web_url: "http://localhost:3000/john_smith",
      confirmed_at: "2012-05-23T09:05:22Z",
    },
    user: {
      id: "1",
      name: "John Smith",
      email: "john@example.com",
      image: "http://localhost:3000/uploads/user/avatar/1/index.jpg",
    },
    verified: true,
  },
  {
    // https://discord.com/developers/docs/resources/user#user-object-example-user
    provider: Discord(creds),
    id: "discord",
    type: "oauth",
    authorization: "https://discord.com/oauth2/authorize",
    scope: "identify email",
    sample: {
      id: "80351110224678912",
      username: "Nelly",
      discriminator: "1337",
      global_name: null,
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.com",
      flags: 64,
    },
    user: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
    verified: true,
  },
  {
    // https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
    provider: MicrosoftEntraID({
      ...creds,
      issuer: "https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0",
    }),
    id: "microsoft-entra-id",
    type: "oidc",
    issuer: "https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0",
    scope: "openid profile email User.Read",
    sample: {
      aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
      iss: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0",
      name: "Abe Lincoln",
      oid: "00000000-0000-0000-66f3-3332eca7ea81",
      preferred_username: "AbeLi@microsoft.com",
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      tid: "9122040d-6c67-4c5b-b112-36a304b66dad",
      ver: "2.0",
    },
    user: {
      id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      name: "Abe Lincoln",
      email: "AbeLi@microsoft.com",
      image: null,
    },
    verified: false,
  },
  {
    // https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple
    provider: Apple(creds),
    id: "apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    scope: "name email",
    sample: {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      sub: "001234.abcdef0123456789abcdef0123456789.1234",
      email: "abcd1234@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
      user: { name: { firstName: "Jane", lastName: "Appleseed" }, email: "ignored@example.com" },
    },
    user: {
      id: "001234.abcdef0123456789abcdef0123456789.1234",
      name: "Jane Appleseed",
      email: "abcd1234@privaterelay.appleid.com",
      image: null,
    },
    verified: true,
  },
  {
    // https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure
    provider: Auth0({ ...creds, issuer: "https://my-domain.auth0.com/" }),
    id: "auth0",
    type: "oidc",
    issuer: "https://my-domain.auth0.com/",
    sample: {
      iss: "http://my-domain.auth0.com",
      sub: "auth0|123456",
      aud: "my_client_id",
      name: "Jane Doe",
      given_name: "Jane",
      family_name: "Doe",
      email: "janedoe@example.com",
      email_verified: true,
      picture: "http://example.com/janedoe/me.jpg",
    },
    user: {
      id: "auth0|123456",
      name: "Jane Doe",
      email: "janedoe@example.com",
      image: "http://example.com/janedoe/me.jpg",
    },
    verified: true,
  },
  {
    // Keycloak ID token (standard OIDC claims; realm "demo")
    provider: Keycloak({ ...creds, issuer: "https://sso.example.com/realms/demo" }),
    id: "keycloak",
    type: "oidc",
    issuer: "https://sso.example.com/realms/demo",
    sample: {
      sub: "f2d3a4b5-6c7d-4e8f-9a0b-1c2d3e4f5a6b",
      email_verified: false,
      preferred_username: "jdoe",
      email: "jdoe@example.com",
    },
    user: {
      id: "f2d3a4b5-6c7d-4e8f-9a0b-1c2d3e4f5a6b",
      name: "jdoe",
      email: "jdoe@example.com",
      image: null,
    },
    verified: false,
  },
  {
    // https://developer.okta.com/docs/api/openapi/okta-oauth/guides/overview/ (ID token claims)
    provider: Okta({ ...creds, issuer: "https://dev-123.okta.com/oauth2/default" }),
    id: "okta",
    type: "oidc",
    issuer: "https://dev-123.okta.com/oauth2/default",
    sample: {
      sub: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      email: "john.doe@example.com",
      email_verified: true,
      preferred_username: "john.doe@example.com",
      ver: 1,
      iss: "https://dev-123.okta.com/oauth2/default",
    },
    user: {
      id: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      email: "john.doe@example.com",
      image: null,
    },
    verified: true,
  },
  {
    // https://docs.slack.dev/authentication/sign-in-with-slack/ (ID token example)
    provider: Slack(creds),
    id: "slack",
    type: "oidc",
    issuer: "https://slack.com",
    sample: {
      iss: "https://slack.com",
      sub: "U0R7MFMJM",
      aud: "25259531569.1115258246291",
      "https://slack.com/user_id": "U0R7MFMJM",
      "https://slack.com/team_id": "T0R7GR",
      email: "krane@slack-corp.com",
      email_verified: true,
      name: "krane",
      picture: "https://secure.gravatar.com/avatar/bc.jpg?s=512",
      given_name: "",
      family_name: "",
      locale: "en-US",
      "https://slack.com/user_image_512": "https://secure.gravatar.com/avatar/bc.jpg?s=512",
    },
    user: {
      id: "U0R7MFMJM",
      name: "krane",
      email: "krane@slack-corp.com",
      image: "https://secure.gravatar.com/avatar/bc.jpg?s=512",
    },
    verified: true,
  },
  {
    // https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/#requesting-claims
    provider: Twitch(creds),
    id: "twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    scope: "openid user:read:email",
    sample: {
      aud: "hof5gwx0su6owfnys0yan9c87zr6t",
      exp: 1642286005,
      iat: 1642285105,
      iss: "https://id.twitch.tv/oauth2",
      sub: "713936733",
      email: "scotwht@justin.tv",
      email_verified: true,
      picture: "https://static-cdn.jtvnw.net/user-default-pictures-uv/profile_image-150x150.png",
      preferred_username: "scotwht",
    },
    user: {
      id: "713936733",
      name: "scotwht",
      email: "scotwht@justin.tv",
      image: "https://static-cdn.jtvnw.net/user-default-pictures-uv/profile_image-150x150.png",
    },
    verified: true,
  },
  {
    // https://developers.facebook.com/docs/graph-api/reference/user (fields id,name,email,picture)
    provider: Facebook(creds),
    id: "facebook",
    type: "oauth",
    authorization: "https://www.facebook.com/v21.0/dialog/oauth",
    scope: "email public_profile",
    sample: {
      id: "10153949412432356",
      name: "Jane Doe",
      email: "jane@example.com",
      picture: {
        data: {
          height: 50,
          is_silhouette: false,
          url: "https://platform-lookaside.fbsbx.com/p.jpg",
          width: 50,
        },
      },
    },
    user: {
      id: "10153949412432356",
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://platform-lookaside.fbsbx.com/p.jpg",
    },
    verified: false,
  },
  {
    // https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#response-body-schema
    provider: LinkedIn(creds),
    id: "linkedin",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    scope: "openid profile email",
    sample: {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile.jpg",
      locale: "en-US",
      email: "doe@email.com",
      email_verified: true,
    },
    user: {
      id: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile.jpg",
    },
    verified: true,
  },
  {
    // https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
    provider: Cognito({
      ...creds,
      issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE",
    }),
    id: "cognito",
    type: "oidc",
    issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE",
    sample: {
      sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
      "cognito:groups": ["admin"],
      email_verified: "true",
      iss: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE",
      "cognito:username": "my-test-user",
      aud: "xxxxxxxxxxxxexample",
      token_use: "id",
      email: "my-test-user@example.com",
    },
    user: {
      id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
      name: "my-test-user",
      email: "my-test-user@example.com",
      image: null,
    },
    verified: true,
  },
  {
    // https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/ (default scope mappings)
    provider: Authentik({
      ...creds,
      issuer: "https://authentik.example.com/application/o/my-app/",
    }),
    id: "authentik",
    type: "oidc",
    issuer: "https://authentik.example.com/application/o/my-app/",
    sample: {
      iss: "https://authentik.example.com/application/o/my-app/",
      sub: "5d2c9e0b1d2f6a3e8c7b4a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d",
      email: "akadmin@example.com",
      email_verified: true,
      name: "authentik Default Admin",
      given_name: "authentik Default Admin",
      preferred_username: "akadmin",
      nickname: "akadmin",
      groups: ["authentik Admins"],
    },
    user: {
      id: "5d2c9e0b1d2f6a3e8c7b4a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d",
      name: "authentik Default Admin",
      email: "akadmin@example.com",
      image: null,
    },
    verified: true,
  },
  {
    // https://zitadel.com/docs/apis/openidoauth/claims
    provider: Zitadel({ ...creds, issuer: "https://my-instance.zitadel.cloud" }),
    id: "zitadel",
    type: "oidc",
    issuer: "https://my-instance.zitadel.cloud",
    sample: {
      sub: "77776025198584418",
      name: "Road Runner",
      given_name: "Road",
      family_name: "Runner",
      preferred_username: "road.runner@acme.caos.ch",
      email: "road.runner@acme.ch",
      email_verified: true,
      picture: "https://my-instance.zitadel.cloud/assets/v1/avatar.png",
    },
    user: {
      id: "77776025198584418",
      name: "Road Runner",
      email: "road.runner@acme.ch",
      image: "https://my-instance.zitadel.cloud/assets/v1/avatar.png",
    },
    verified: true,
  },
]

describe.each(cases)("preset $id", (c) => {
  const resolved = resolveOAuthProvider(c.provider)

  it("has the documented id, type, issuer and endpoints", () => {
    expect(c.provider.id).toBe(c.id)
    expect(c.provider.type).toBe(c.type)
    expect(typeof c.provider.name).toBe("string")
    if (c.issuer) expect(c.provider.issuer).toBe(c.issuer)
    if (c.authorization) expect(resolved.authorization.url?.href).toBe(c.authorization)
    if (c.scope) expect(resolved.authorization.params.scope).toBe(c.scope)
    if (c.type === "oidc") expect(resolved.checks.has("nonce")).toBe(true)
    expect(resolved.checks.has("pkce")).toBe(true)
    expect(resolved.checks.has("state")).toBe(true)
  })

  it("maps the documented sample to { id, name, email, image }", async () => {
    const user = await mapped(c.provider, c.sample)
    expect({ id: user.id, name: user.name, email: user.email, image: user.image }).toEqual(c.user)
  })

  it("states whether its email claim is verified (it decides who may claim an address)", () => {
    expect(c.verified).toBeDefined()
    expect(resolved.isEmailVerified(c.sample as never)).toBe(c.verified)
  })

  it("attack: the same profile without its verification claim is not verified", () => {
    const {
      email_verified: _oidc,
      verified: _discord,
      confirmed_at: _gitlab,
      ...bare
    } = c.sample as Record<string, unknown>
    expect(resolved.isEmailVerified(bare as never)).toBe(false)
    for (const unverified of [
      { email_verified: false },
      { email_verified: "false" },
      { verified: false },
    ]) {
      expect(resolved.isEmailVerified({ ...bare, ...unverified } as never)).toBe(false)
    }
  })
})

describe("preset options", () => {
  it("deep-merges endpoint params: the URL and scope stay, new params are added", () => {
    const p = GitHub({ ...creds, authorization: { params: { allow_signup: "false" } } })
    const r = resolveOAuthProvider(p)
    expect(r.authorization.url?.href).toBe("https://github.com/login/oauth/authorize")
    expect(r.authorization.params).toEqual({ scope: "read:user user:email", allow_signup: "false" })
  })

  it("undefined options (the env-filling pass) never erase a default", () => {
    const p = Google({ clientId: "id", clientSecret: "s", issuer: undefined })
    expect(p.issuer).toBe("https://accounts.google.com")
  })

  it("Auth.js-style options object is not left for a second, shallow merge", () => {
    expect("options" in GitHub(creds)).toBe(false)
  })

  it("GitHub Enterprise base URL moves every endpoint", () => {
    const r = resolveOAuthProvider(
      GitHub({ ...creds, enterprise: { baseUrl: "https://ghe.example.com/" } }),
    )
    expect(r.authorization.url?.href).toBe("https://ghe.example.com/login/oauth/authorize")
    expect(r.token.url?.href).toBe("https://ghe.example.com/login/oauth/access_token")
    expect(r.userinfo.url?.href).toBe("https://ghe.example.com/api/v3/user")
  })

  it("Discord: default avatar for a user without one (new usernames: (id >> 22) % 6)", async () => {
    const user = await mapped(Discord(creds), {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: null,
    })
    expect(user.image).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    )
    expect(user.name).toBe("Nelly")
  })

  it("Apple: form_post, client_secret_post, and the user param is read", () => {
    const r = resolveOAuthProvider(Apple(creds))
    expect(r.formPost).toBe(true)
    expect(r.clientAuthMethod).toBe("client_secret_post")
    expect(r.userParam).toBe(true)
  })

  it("Twitch: token response scope array is conformed to a string", async () => {
    const response = Response.json({
      access_token: "a",
      token_type: "bearer",
      scope: ["openid", "user:read:email"],
    })
    const fixed = await conformTwitchTokenResponse(response)
    expect(await fixed.json()).toMatchObject({ scope: "openid user:read:email" })
    const r = resolveOAuthProvider(Twitch(creds))
    expect(JSON.parse(r.authorization.params.claims!)).toHaveProperty("id_token.email")
  })

  it("Facebook: userinfo asks for the fields it maps", () => {
    const r = resolveOAuthProvider(Facebook(creds))
    expect(r.userinfo.params.fields).toBe("id,name,email,picture")
  })
})
