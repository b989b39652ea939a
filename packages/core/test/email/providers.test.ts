import { describe, expect, it } from "vitest"
import { InvalidParameter } from "../../src/kernel/errors/errors.js"
import EmailDefault, { Email } from "../../src/providers/email.js"
import NodemailerDefault, {
  DEFAULT_FROM,
  Nodemailer,
  sendWithNodemailer,
} from "../../src/providers/nodemailer.js"

describe("Nodemailer / Email providers", () => {
  it("Nodemailer has Auth.js's id and type, and a 10-minute maxAge", () => {
    const p = Nodemailer({ server: "smtp://localhost:25" })
    expect(p).toMatchObject({
      id: "nodemailer",
      name: "Nodemailer",
      type: "email",
      server: "smtp://localhost:25",
      from: DEFAULT_FROM,
      maxAge: 600,
    })
    expect(p.sendVerificationRequest).toBe(sendWithNodemailer)
    expect(p.options).toEqual({ server: "smtp://localhost:25" })
    expect(NodemailerDefault).toBe(Nodemailer)
  })

  it("Email is Nodemailer with id and name `email`/`Email`", () => {
    const p = Email({ server: { host: "127.0.0.1", port: 2525 }, from: "a@b.c" })
    expect(p).toMatchObject({
      id: "email",
      name: "Email",
      type: "email",
      from: "a@b.c",
      maxAge: 600,
    })
    expect(EmailDefault).toBe(Email)
    expect(Email({ server: "smtp://x", id: "magic" }).id).toBe("magic")
  })

  it("takes overrides, but an undefined value keeps the default", () => {
    const normalizeIdentifier = (s: string) => s
    const p = Nodemailer({
      server: "smtp://x",
      maxAge: 120,
      id: "mail",
      normalizeIdentifier,
      from: undefined,
    })
    expect(p).toMatchObject({ id: "mail", maxAge: 120, from: DEFAULT_FROM, type: "email" })
    expect(p.normalizeIdentifier).toBe(normalizeIdentifier)
    expect(Nodemailer({ server: "smtp://x", maxAge: undefined }).maxAge).toBe(600)
  })

  it("requires `server` unless a sender is given, with a typed, actionable error", () => {
    expect(() => Nodemailer({})).toThrow(InvalidParameter)
    expect(() => Email({})).toThrow(/server.*SMTP URL/)
    expect(() => Nodemailer({ sendVerificationRequest: () => {} })).not.toThrow()
  })

  it("`type` cannot be overridden", () => {
    const p = Nodemailer({ server: "smtp://x", ...({ type: "oauth" } as object) })
    expect(p.type).toBe("email")
  })
})
