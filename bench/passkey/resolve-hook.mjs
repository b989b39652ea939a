// Module resolve hook: `@simplewebauthn/server` imported from @auth/core → the v9 shim.
const shim = new URL("./simplewebauthn-v9-shim.mjs", import.meta.url).href

export async function resolve(specifier, context, next) {
  if (specifier === "@simplewebauthn/server" && context.parentURL?.includes("/@auth/core/")) {
    return { url: shim, shortCircuit: true }
  }
  return next(specifier, context)
}
