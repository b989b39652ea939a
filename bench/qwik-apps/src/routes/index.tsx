import { component$ } from "@builder.io/qwik"
import { useSession } from "./plugin@auth"

export default component$(() => {
  const session = useSession()
  // `undefined` only in the build without auth, where `useSession` is not a loader at all.
  const who = session.value === undefined ? "no auth" : (session.value?.user?.email ?? "signed out")
  return <p id="who">{who}</p>
})
