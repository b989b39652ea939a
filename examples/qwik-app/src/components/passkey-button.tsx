/**
 * A button that runs a passkey ceremony (`registerPasskey` / `signInWithPasskey` of
 * `@latchkey/qwik`) and shows why it failed when the browser did not navigate away.
 */
import { component$, type QRL, Slot, useSignal } from "@builder.io/qwik"
import type { PasskeyFailure } from "@latchkey/qwik"

export const PasskeyButton = component$(
  (props: {
    run$: QRL<() => Promise<PasskeyFailure | undefined>>
    testId: string
    class: string
  }) => {
    const error = useSignal("")
    // Set when the server asks for a fresh sign-in first (adding a passkey needs a recent one).
    const signInUrl = useSignal("")
    return (
      <>
        <button
          type="button"
          class={props.class}
          data-testid={props.testId}
          onClick$={async () => {
            error.value = ""
            signInUrl.value = ""
            const failed = await props.run$()
            if (failed) error.value = failed.error.message
            if (failed?.signInUrl) signInUrl.value = failed.signInUrl
          }}
        >
          <Slot />
        </button>
        {error.value && (
          <p class="notice error" role="alert" data-testid="passkey-error">
            {error.value}
            {signInUrl.value && (
              <>
                {" "}
                <a href={signInUrl.value} data-testid="passkey-sign-in-again">
                  Sign in again
                </a>
              </>
            )}
          </p>
        )}
      </>
    )
  },
)
