import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, type RequestHandler } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/qwik"
import {
  accountLoaders,
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useEnrollTwoFactor,
  useRegenerateRecoveryCodes,
} from "../../plugin@auth"

// Exported by this page only, so only this page reads the second factor (see plugin@auth).
export const useTwoFactorStatus = accountLoaders.useTwoFactorStatus

export const onRequest: RequestHandler = ({ sharedMap, url, redirect }) => {
  if (!(sharedMap.get("@latchkey/session") as Session | null)) {
    throw redirect(302, `/signin/?callbackUrl=${encodeURIComponent(url.pathname)}`)
  }
}

/** A failed action's message and, for a sign-in that is not recent enough, where to confirm. */
const Failure = component$((props: { value: unknown }) => {
  const failed = props.value as
    | { failed?: boolean; formErrors?: string[]; signInUrl?: string }
    | undefined
  if (!failed?.failed) return null
  return (
    <p class="notice error" role="alert" data-testid="two-factor-error">
      {failed.formErrors?.[0]} {failed.signInUrl && <a href={failed.signInUrl}>Sign in again</a>}
    </p>
  )
})

export default component$(() => {
  const status = useTwoFactorStatus()
  const enroll = useEnrollTwoFactor()
  const confirm = useConfirmTwoFactor()
  const disable = useDisableTwoFactor()
  const regenerate = useRegenerateRecoveryCodes()
  const enrollment = enroll.value && "secret" in enroll.value ? enroll.value : null
  const shown =
    (confirm.value && "recoveryCodes" in confirm.value ? confirm.value.recoveryCodes : null) ??
    (regenerate.value && "recoveryCodes" in regenerate.value
      ? regenerate.value.recoveryCodes
      : null)
  const on = status.value?.enabled === true
  return (
    <section class="card narrow">
      <p class="eyebrow">Account</p>
      <h1>Two-factor sign-in</h1>
      <p>
        With two-factor sign-in on, signing in with your password (or an email link, or another
        provider) also asks for a code from an authenticator app. A passkey is enough on its own.
        Turning it on or off asks you to have signed in recently.
      </p>
      <p>
        Status: <strong data-testid="two-factor-state">{on ? "on" : "off"}</strong>
        {on && status.value?.recoveryCodesLeft !== null && (
          <> ({status.value?.recoveryCodesLeft} recovery codes left)</>
        )}
      </p>
      {shown && (
        <div class="notice success">
          <p>
            Your recovery codes. Keep them somewhere safe: each works once, and they are shown only
            now.
          </p>
          <ul data-testid="recovery-codes">
            {shown.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!on && !enrollment && (
        <Form action={enroll} class="stack">
          <button type="submit" class="button" data-testid="two-factor-enroll">
            Turn on
          </button>
        </Form>
      )}
      {!on && enrollment && (
        <Form action={confirm} class="stack">
          <p>
            Scan this code with an authenticator app, or type the secret, then enter the code it
            shows.
          </p>
          {/* The core's QR code of the otpauth:// URI: an SVG of paths, no script, no link. */}
          <div class="qr" dangerouslySetInnerHTML={enrollment.qrSvg} />
          <p>
            Secret: <code data-testid="two-factor-secret">{enrollment.secret}</code>
          </p>
          <label>
            Code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
          </label>
          <button type="submit" class="button" data-testid="two-factor-confirm">
            Confirm
          </button>
        </Form>
      )}
      <Failure value={enroll.value} />
      <Failure value={confirm.value} />
      {on && (
        <div class="stack">
          <Form action={regenerate}>
            <button type="submit" class="button ghost" data-testid="two-factor-regenerate">
              New recovery codes
            </button>
          </Form>
          <Form action={disable}>
            <button type="submit" class="button ghost" data-testid="two-factor-disable">
              Turn off
            </button>
          </Form>
        </div>
      )}
      <Failure value={regenerate.value} />
      <Failure value={disable.value} />
    </section>
  )
})

export const head: DocumentHead = { title: "Two-factor sign-in" }
