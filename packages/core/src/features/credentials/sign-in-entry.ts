/**
 * A credentials provider's form on the built-in sign-in page: its configured fields, posted to
 * its callback. As in Auth.js, a provider without fields is one the app signs in to from its
 * own form, so it gets no entry.
 */
import { fieldsForm } from "../../kernel/pages/form-fields.js"
import { type SignInEntry, signInLabel } from "../../kernel/pages/sign-in-entry.js"

export const credentialsEntry: SignInEntry = ({ provider, index, hidden }) => {
  if (provider.credentials === undefined) return undefined
  return fieldsForm(
    provider.callbackUrl,
    provider.credentials,
    index,
    hidden,
    signInLabel(provider),
  )
}
