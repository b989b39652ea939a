import { describe, expect, it } from "vitest"
import {
  AccessDenied,
  AuthError,
  CredentialsSignin,
  InvalidConfiguration,
  InvalidParameter,
  isClientError,
  MissingCSRF,
  MissingSecret,
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
