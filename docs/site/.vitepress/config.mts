import { defineConfig } from "vitepress"

// The site is built from `pages/`; `scripts/split-readme.mjs` moved the README's sections there.
// Search is VitePress's local one (minisearch): the index ships with the site, so it works
// offline and needs no service. No link leaves for the network except the repository's.
export default defineConfig({
  srcDir: "pages",
  title: "Latchkey",
  description: "Authentication for Qwik City, wire-compatible with Auth.js v5",
  cleanUrls: true,
  // The quick start names the app it starts (http://localhost:5173/): not a page of the site.
  ignoreDeadLinks: "localhostLinks",
  lastUpdated: false,
  themeConfig: {
    search: { provider: "local" },
    outline: [2, 3],
    nav: [
      { text: "Getting started", link: "/getting-started" },
      { text: "Reference", link: "/reference/configuration" },
    ],
    sidebar: [
      {
        text: "Start",
        items: [
          { text: "Latchkey", link: "/" },
          { text: "Getting started", link: "/getting-started" },
          { text: "Qwik 2", link: "/qwik2" },
          { text: "Migrating from @auth/qwik", link: "/migrating" },
        ],
      },
      {
        text: "Sign-in methods",
        items: [
          { text: "Password accounts", link: "/guides/password" },
          { text: "Passkeys", link: "/guides/passkeys" },
          { text: "Email links", link: "/guides/email-links" },
          { text: "OAuth and OpenID Connect", link: "/guides/oauth" },
          { text: "Your own users table", link: "/guides/credentials" },
        ],
      },
      {
        text: "Databases",
        items: [
          { text: "Which adapter", link: "/databases/" },
          { text: "SQLite and Cloudflare D1", link: "/databases/sqlite" },
          { text: "PostgreSQL", link: "/databases/postgresql" },
          { text: "MySQL and MariaDB", link: "/databases/mysql" },
        ],
      },
      {
        text: "Running it",
        items: [
          { text: "The account page and two-factor", link: "/account" },
          { text: "Organizations", link: "/guides/organizations" },
          { text: "Sessions and stores", link: "/sessions" },
          { text: "Deploying", link: "/deploying" },
          { text: "The token module", link: "/token" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Configuration", link: "/reference/configuration" },
          { text: "Provider presets", link: "/reference/providers" },
          { text: "Log codes", link: "/reference/log-codes" },
          { text: "Build-time warnings", link: "/reference/build-warnings" },
          { text: "Security model", link: "/security" },
          { text: "Benchmarks", link: "/benchmarks" },
          { text: "Design notes", link: "/design/" },
        ],
      },
    ],
  },
})
