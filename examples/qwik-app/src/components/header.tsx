import { component$ } from "@builder.io/qwik"
import { Form, Link, useLocation } from "@builder.io/qwik-city"
import { useSession, useSignOut } from "~/routes/plugin@auth"

export const Header = component$(() => {
  const session = useSession()
  const signOut = useSignOut()
  const loc = useLocation()
  const user = session.value?.user
  const links = [
    { href: "/", label: "Home" },
    { href: "/protected/", label: "Protected" },
    { href: "/account/", label: "Account" },
    { href: "/account/two-factor/", label: "Two-factor" },
    { href: "/provider/", label: "Provider" },
  ]
  return (
    <header class="topbar">
      <Link href="/" class="brand">
        <span class="brand-mark" aria-hidden="true">
          ⌂
        </span>
        Latchkey
      </Link>
      <nav>
        {links.map((l) => (
          <Link key={l.href} href={l.href} class={loc.url.pathname === l.href ? "active" : ""}>
            {l.label}
          </Link>
        ))}
      </nav>
      <div class="account">
        {user ? (
          <>
            <span class="who" data-testid="who">
              {user.email}
            </span>
            <Form action={signOut}>
              <input type="hidden" name="redirectTo" value="/" />
              <button type="submit" class="button ghost" data-testid="sign-out">
                Sign out
              </button>
            </Form>
          </>
        ) : loc.url.pathname.startsWith("/signin") ? null : (
          <Link href="/signin/" class="button" data-testid="sign-in-link">
            Sign in
          </Link>
        )}
      </div>
    </header>
  )
})
