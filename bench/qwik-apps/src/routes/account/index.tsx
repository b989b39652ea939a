// A second page, because every real app has more than one. The page suites measure it as the page
// below the root (where `useSession`, declared in plugin@auth.ts, is a loader of another path),
// and `verify()` in `bench/qwik-page.mjs` visits it before anything is measured: the router loads
// a page's module on its first visit. In a one-page app the only module loaded during a request
// would be Latchkey's own (its server half, loaded on first use), which makes Node's promise hooks
// slower for every later request in that process alone (docs/site/pages/benchmarks.md, "One page
// is not an app").
export { default } from "../index"
