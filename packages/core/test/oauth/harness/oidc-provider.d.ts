// oidc-provider ships no types; the harness uses a small, loosely typed part of it.
declare module "oidc-provider" {
  // biome-ignore lint/suspicious/noExplicitAny: untyped third-party module
  const Provider: any
  export default Provider
}
