/**
 * What an account action (`useRenamePasskey`, …) answered, shown next to the form that sent it:
 * "Saved." on success, the binding's message on failure, and, when the change needs a fresh
 * sign-in, a "Sign in again" link that brings the user back to this page.
 */
import { component$ } from "@builder.io/qwik"

/** The fields of an account action's value this component reads (success or failure). */
export interface ActionValue {
  ok?: boolean
  failed?: boolean
  formErrors?: string[]
  fieldErrors?: Record<string, string | string[] | undefined>
  error?: { type: string; message: string }
  signInUrl?: string
}

export const AccountResult = component$(
  (props: { value: ActionValue | undefined; done: string; testId: string }) => {
    const value = props.value
    if (!value) return null
    if (value.ok) {
      return (
        <p class="notice success" data-testid={`${props.testId}-done`}>
          {props.done}
        </p>
      )
    }
    if (!value.failed) return null
    const fieldMessages = Object.values(value.fieldErrors ?? {})
      .flat()
      .filter((m) => m !== undefined)
    const message = value.error?.message ?? [...(value.formErrors ?? []), ...fieldMessages][0]
    return (
      <div class="notice error" role="alert" data-testid={`${props.testId}-error`}>
        <span data-testid="account-error-type" data-type={value.error?.type ?? "Invalid"}>
          {message ?? "That did not work. Please try again."}
        </span>
        {value.signInUrl && (
          <>
            {" "}
            <a href={value.signInUrl} class="reauth-link" data-testid="reauth-link">
              Sign in again
            </a>
          </>
        )}
      </div>
    )
  },
)
