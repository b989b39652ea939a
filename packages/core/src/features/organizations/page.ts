/** The page a mailed invitation link opens: a confirmation (accepting changes state: a POST). */
import { escapeHtml } from "../../kernel/pages/escape.js"
import {
  formAction,
  hiddenFields,
  type PageResponse,
  type PageTheme,
  renderLayout,
} from "../../kernel/pages/layout.js"

export interface InvitationPageProps {
  theme: PageTheme
  csrfToken: string
  acceptUrl: string
  invitationId: string
  token: string
  callbackUrl: string
  /** Shown only to the invited (signed-in, proven) user. */
  organizationName: string | undefined
  /** A refusal to show instead of the form. */
  problem: string | undefined
}

export function renderInvitationPage(props: InvitationPageProps): PageResponse {
  const title = "Join an organization"
  if (props.problem !== undefined) {
    const body = `<h1>${title}</h1>\n<div class="alert" role="alert"><p>${escapeHtml(props.problem)}</p></div>`
    return { status: 200, html: renderLayout({ title, theme: props.theme, body }) }
  }
  const hidden =
    hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl }) +
    `<input type="hidden" name="invitationId" value="${escapeHtml(props.invitationId)}">\n` +
    `<input type="hidden" name="token" value="${escapeHtml(props.token)}">\n`
  const name = props.organizationName ?? "the organization"
  const body =
    `<h1>${title}</h1>\n` +
    `<p class="center">You were invited to join <strong>${escapeHtml(name)}</strong>.</p>\n` +
    `<form${formAction(props.acceptUrl)} method="post">\n${hidden}` +
    `<button type="submit" class="button">Accept the invitation</button>\n</form>`
  return { status: 200, html: renderLayout({ title, theme: props.theme, body }) }
}
