import { component$ } from "@qwik.dev/core"
import { RouterOutlet, useQwikRouter } from "@qwik.dev/router"

// `../../src/root.tsx` on Qwik 2: the provider component became the `useQwikRouter()` hook.
export default component$(() => {
  useQwikRouter()
  return (
    <>
      <head>
        <meta charset="utf-8" />
        <title>Latchkey page bench</title>
      </head>
      <body>
        <RouterOutlet />
      </body>
    </>
  )
})
