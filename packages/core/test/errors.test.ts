import { describe, expect, it } from "vitest"
import {
  AccessDenied,
  AuthError,
  CredentialsSignin,
  EmailUnverified,
  InvalidConfiguration,
  InvalidParameter,
  isClientError,
  MissingCSRF,
  MissingSecret,
  OAuthAccountNotLinked,
  SignInError,
} from "../src/kernel/errors/errors.js"

describe("errors", () => {
  it("carries a stable type, kind and name per class", () => {
    const e = new AccessDenied("nope")
    expect(e).toBeInstanceOf(AuthError)
    expect(e).toBeInstanceOf(Error)
    expect(e.type).toBe("AccessDenied")
    expect(e.name).toBe("AccessDenied")
    expect(e.kind).toBe("error")
    expect(new MissingCSRF().kind).toBe("signIn")
    expect(new CredentialsSignin().code).toBe("credentials")
  })

  it("does not rewrite the message", () => {
    expect(new MissingSecret("set AUTH_SECRET").message).toBe("set AUTH_SECRET")
    expect(new MissingSecret().message).toBe("MissingSecret error")
  })

  it("lets only allow-listed errors reach the client", () => {
    expect(isClientError(new AccessDenied())).toBe(true)
    expect(isClientError(new MissingSecret())).toBe(false)
    expect(isClientError(new Error("x"))).toBe(false)
  })

  it("names the bad parameter and lists every configuration problem", () => {
    const p = new InvalidParameter("salt", "must be a string")
    expect(p.parameter).toBe("salt")
    expect(p.message).toBe('"salt" must be a string')
    const c = new InvalidConfiguration([new MissingSecret("a"), p])
    expect(c.problems).toHaveLength(2)
    expect(c.message).toContain("[MissingSecret] a")
    expect(c.message).toContain("[InvalidParameter]")
  })
})

describe("errors made by another copy of the module", () => {
  // An app that bundles the core while an adapter package loads its own copy from node_modules:
  // the adapter feature's refusals must still be recognised, or a refused link becomes a 500.
  // A query makes the module loader load the file again, as a module of its own.
  const otherCopy = () =>
    // @ts-expect-error: the compiler resolves no query; the loader does
    import("../src/kernel/errors/errors.js?another-copy") as Promise<
      typeof import("../src/kernel/errors/errors.js")
    >

  it("is an instance of the same class, and of its ancestors, and of nothing else", async () => {
    const copy = await otherCopy()
    expect(copy.OAuthAccountNotLinked).not.toBe(OAuthAccountNotLinked)
    const notLinked = new copy.OAuthAccountNotLinked("taken")
    expect(notLinked).toBeInstanceOf(OAuthAccountNotLinked)
    expect(notLinked).toBeInstanceOf(SignInError)
    expect(notLinked).toBeInstanceOf(AuthError)
    expect(notLinked).not.toBeInstanceOf(AccessDenied)
    expect(notLinked).not.toBeInstanceOf(CredentialsSignin)
  })

  it("tells a subclass without a type of its own from its parent", async () => {
    const copy = await otherCopy()
    expect(new copy.EmailUnverified()).toBeInstanceOf(EmailUnverified)
    expect(new copy.EmailUnverified()).toBeInstanceOf(CredentialsSignin)
    expect(new copy.CredentialsSignin()).not.toBeInstanceOf(EmailUnverified)
    expect(new copy.AccessDenied()).not.toBeInstanceOf(SignInError)
  })

  it("a plain Error or a look-alike object is no AuthError", () => {
    expect(new Error("x")).not.toBeInstanceOf(AuthError)
    expect({ type: "AccessDenied", name: "AccessDenied" }).not.toBeInstanceOf(AccessDenied)
    expect(null).not.toBeInstanceOf(AuthError)
  })
})
