import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Link, type RequestHandler, routeLoader$ } from "@builder.io/qwik-city"
import { devMailboxGuard } from "@latchkey/qwik"
import { devMailboxEnabled, listDevMailbox } from "~/lib/dev-mailbox"

/**
 * The dev mailbox: the mails of the demo's email and password providers. Their links sign in
 * (or reset the password of) whoever opens them, so it only exists while the demo runs with the mailbox on, and only for clients on
 * this machine; everyone else gets a 404.
 */
export const onRequest: RequestHandler = (event) => devMailboxGuard(devMailboxEnabled())(event)

export const useMailbox = routeLoader$(() => listDevMailbox())

/** Only http(s) links become clickable (the core builds them from the app's origin anyway). */
function isWebUrl(url: string | null): url is string {
  return url !== null && URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)
}

export default component$(() => {
  const mails = useMailbox()
  return (
    <section class="card">
      <p class="eyebrow">Development only</p>
      <h1>Dev mailbox</h1>
      <p class="notice warning" data-testid="mailbox-warning">
        The demo sends no mail (unless <code>SMTP_URL</code> is set): sign-in, confirmation and
        reset links land here instead. This page exists only while the demo runs (
        <code>LATCHKEY_DEMO_MAILBOX=off</code> removes it) and answers only requests from this
        machine. A real app sends the mail and never shows it to anyone else.
      </p>
      {mails.value.length === 0 ? (
        <p class="hint" data-testid="mailbox-empty">
          No mail yet. Ask for a link on the <Link href="/signin/">sign-in page</Link>.
        </p>
      ) : (
        <ol class="mailbox" data-testid="mailbox">
          {mails.value.map((mail) => (
            <li
              key={mail.id}
              class="mail"
              data-testid="mail"
              data-to={mail.to}
              data-purpose={mail.purpose}
            >
              <div class="mail-head">
                <strong>{mail.subject}</strong>
                <time dateTime={mail.sentAt}>{mail.sentAt.slice(11, 19)} UTC</time>
              </div>
              <div class="mail-meta">
                To <code>{mail.to}</code>
                {mail.expires && (
                  <>
                    {" "}
                    · link valid until{" "}
                    <time dateTime={mail.expires}>{mail.expires.slice(11, 19)} UTC</time>
                  </>
                )}
              </div>
              {isWebUrl(mail.url) ? (
                // A plain link: the confirm page is the core's, not a Qwik route.
                <a href={mail.url} class="mail-link" data-testid="mail-link">
                  {mail.url}
                </a>
              ) : (
                mail.url && <code>{mail.url}</code>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
})

export const head: DocumentHead = {
  title: "Dev mailbox",
  meta: [{ name: "robots", content: "noindex, nofollow" }],
}
