import { credentialsEntry } from "../../src/features/credentials/sign-in-entry.js"
import { emailEntry } from "../../src/features/email/sign-in-entry.js"
import { oauthEntry } from "../../src/features/oauth/sign-in-entry.js"
import { passkeyEntry } from "../../src/features/passkey/sign-in-entry.js"
import type { PageProvider } from "../../src/kernel/pages/index.js"

// Each entry as its feature renders it (`Feature.signInPage` sets `render`).

const base = "https://app.example.com/auth"

export const github: PageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: `${base}/signin/github`,
  callbackUrl: `${base}/callback/github`,
  render: oauthEntry,
  style: { bg: "#24292f", text: "#fff" },
}

export const google: PageProvider = {
  id: "google",
  name: "Google",
  type: "oidc",
  signinUrl: `${base}/signin/google`,
  callbackUrl: `${base}/callback/google`,
  render: oauthEntry,
  style: { bg: "#fff", text: "#1f1f1f", brandColor: "#1a73e8" },
}

export const email: PageProvider = {
  id: "email",
  name: "Email",
  type: "email",
  signinUrl: `${base}/signin/email`,
  callbackUrl: `${base}/callback/email`,
  render: emailEntry,
}

export const credentials: PageProvider = {
  id: "credentials",
  name: "Password",
  type: "credentials",
  signinUrl: `${base}/signin/credentials`,
  callbackUrl: `${base}/callback/credentials`,
  render: credentialsEntry,
  credentials: {
    username: { label: "Username", placeholder: "jsmith", autocomplete: "username" },
    password: { label: "Password", type: "password", required: true, minLength: 8 },
  },
}

export const webauthn: PageProvider = {
  id: "webauthn",
  name: "Passkey",
  type: "webauthn",
  signinUrl: `${base}/signin/webauthn`,
  callbackUrl: `${base}/callback/webauthn`,
  render: passkeyEntry,
  optionsUrl: `${base}/webauthn-options/webauthn`,
  conditionalUI: true,
  credentials: { email: { label: "Email", type: "email", autocomplete: "username webauthn" } },
}

export const callbackUrl = "https://app.example.com/dashboard?tab=1&x=2"
export const csrfToken = "c5f1e9a0.7d2b"
