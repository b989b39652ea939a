import { describe, expect, it } from "vitest"
import { invitationMessage } from "../../src/organizations.js"

const invitation = {
  to: "bob@example.com",
  url: "https://app.example/auth/organization/accept?invitationId=i1&token=t&x=1",
  organization: { id: "o1", name: 'Acme <b>"&', slug: "acme" },
  inviter: { id: "u1", name: null, email: "ada@example.com" },
  role: "admin",
  expires: new Date("2030-01-02T03:04:05Z"),
}

describe("invitationMessage", () => {
  it("names the organization, the role, the inviter and the expiry; the link once", () => {
    const { subject, text, html } = invitationMessage(invitation)
    expect(subject).toBe('Join Acme <b>"& as admin')
    expect(text).toContain('ada@example.com invites you to Acme <b>"& as admin.')
    expect(text).toContain(invitation.url)
    expect(text).toContain("Wed, 02 Jan 2030 03:04:05 GMT")
    expect(html.split("<a ").length).toBe(2)
    expect(html).toContain(
      'href="https://app.example/auth/organization/accept?invitationId=i1&amp;token=t&amp;x=1"',
    )
  })

  it("escapes every name in the HTML", () => {
    const { html } = invitationMessage({
      ...invitation,
      inviter: { id: "u1", name: '<a href="//evil">x</a>', email: null },
    })
    expect(html).not.toContain("<b>")
    expect(html).not.toContain('//evil"')
    expect(html).toContain("Acme &lt;b&gt;&quot;&amp;")
  })
})
