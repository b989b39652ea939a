// Renders every built-in page in Debian's Chromium and writes PNGs to .tmp/pages/ for a human to
// look at. Not part of the test suite: run `node packages/core/test/pages/screenshot.mjs`.
// The page HTML goes in with setContent and every request is refused, so no network is used.
import { mkdir } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"
import { runnerImport } from "vite"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const out = `${root}.tmp/pages`
const { module: pages } = await runnerImport(
  fileURLToPath(new URL("../../src/kernel/pages/index.ts", import.meta.url)),
)

const base = "https://app.example.com/auth"
const logo =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect rx="8" width="40" height="40" fill="#7c3aed"/><text x="50" y="28" font-family="sans-serif" font-size="22" font-weight="700" fill="#7c3aed">Acme</text></svg>',
  )
const githubMark =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#fff"/></svg>',
  )
const providers = [
  {
    id: "github",
    name: "GitHub",
    type: "oauth",
    signinUrl: `${base}/signin/github`,
    callbackUrl: `${base}/callback/github`,
    style: { bg: "#24292f", text: "#fff", logo: githubMark },
  },
  {
    id: "google",
    name: "Google",
    type: "oidc",
    signinUrl: `${base}/signin/google`,
    callbackUrl: `${base}/callback/google`,
  },
  {
    id: "email",
    name: "Email",
    type: "email",
    signinUrl: `${base}/signin/email`,
    callbackUrl: `${base}/callback/email`,
  },
  {
    id: "credentials",
    name: "Password",
    type: "credentials",
    signinUrl: `${base}/signin/credentials`,
    callbackUrl: `${base}/callback/credentials`,
    credentials: {
      username: { label: "Username", placeholder: "jsmith", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
  },
]
const common = { csrfToken: "tok", callbackUrl: "/" }

const shots = {
  "signin-all": (theme) =>
    pages.renderSignInPage({ ...common, providers, theme: { ...theme, logo } }),
  "signin-error": (theme) =>
    pages.renderSignInPage({
      ...common,
      providers: providers.slice(2),
      error: "CredentialsSignin",
      theme,
    }),
  "signin-brand": (theme) =>
    pages.renderSignInPage({
      ...common,
      providers: providers.slice(1, 3),
      email: "ada@example.com",
      theme: { ...theme, brandColor: "#7c3aed", buttonText: "#fff" },
    }),
  signout: (theme) => pages.renderSignOutPage({ ...common, actionUrl: `${base}/signout`, theme }),
  "error-access": (theme) =>
    pages.renderErrorPage({
      error: "AccessDenied",
      signInUrl: `${base}/signin`,
      homeUrl: "/",
      theme,
    }),
  "error-config": (theme) =>
    pages.renderErrorPage({ error: "Configuration", signInUrl: "/", homeUrl: "/", theme }),
  verify: (theme) =>
    pages.renderVerifyRequestPage({
      homeUrl: "https://app.example.com",
      email: "ada@example.com",
      theme,
    }),
}

await mkdir(out, { recursive: true })
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
})
try {
  for (const [scheme, media] of [
    ["light", "light"],
    ["dark", "dark"],
    ["auto", "dark"],
  ]) {
    for (const width of [800, 360]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: media })
      await page.route("**/*", (route) => route.abort())
      for (const [name, render] of Object.entries(shots)) {
        const { html } = render({ colorScheme: scheme })
        await page.setContent(html)
        await page.screenshot({ path: `${out}/${name}-${scheme}-${width}.png`, fullPage: true })
      }
      // Keyboard focus on the second provider button, then on the email input.
      await page.setContent(shots["signin-all"]({ colorScheme: scheme }).html)
      await page.keyboard.press("Tab")
      await page.keyboard.press("Tab")
      await page.screenshot({ path: `${out}/focus-button-${scheme}-${width}.png` })
      await page.keyboard.press("Tab")
      await page.screenshot({ path: `${out}/focus-input-${scheme}-${width}.png` })
      await page.close()
    }
  }
  console.log(`screenshots in ${out}`)
} finally {
  await browser.close()
}
