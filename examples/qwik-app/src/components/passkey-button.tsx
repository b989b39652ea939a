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
    return (
      <>
        <button
          type="button"
          class={props.class}
          data-testid={props.testId}
          onClick$={async () => {
            error.value = ""
            const failed = await props.run$()
            if (failed) error.value = failed.error.message
          }}
        >
          <Slot />
        </button>
        {error.value && (
          <p class="notice error" role="alert" data-testid="passkey-error">
            {error.value}
          </p>
        )}
      </>
    )
  },
)
