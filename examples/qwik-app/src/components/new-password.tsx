/**
 * The "new password" field of sign-up, reset and the account page. `minLength` mirrors the
 * provider's policy (8, its default) so the browser says so before a round trip; the server's
 * policy decides, and its refusal is shown by the form.
 */
import { component$, Slot } from "@builder.io/qwik"

export const NewPassword = component$((props: { label?: string }) => (
  <label>
    {props.label ?? "New password"}
    <input name="password" type="password" autoComplete="new-password" required minLength={8} />
    <Slot />
  </label>
))
