import type { Session } from "@latchkey/core"
import { describe, expectTypeOf, it } from "vitest"
import type { AccountData, AccountErrorType } from "../src/account-types.js"
import type { PasswordErrorType } from "../src/password.js"
import type { QwikAuth$ } from "../src/qwik-auth.js"
import type { QwikAuthConfig, SessionOf } from "../src/types.js"

describe("SessionOf", () => {
  it("is Session for a config typed as QwikAuthConfig", () => {
    expectTypeOf<SessionOf<QwikAuthConfig>>().toEqualTypeOf<Session>()
  })

  it("is what the session callback returns when TypeScript can see it", () => {
    const config = {
      providers: [],
      callbacks: {
        session: async ({ session }: { session: Session }) => ({
          ...session,
          role: "admin" as const,
        }),
      },
    } satisfies QwikAuthConfig
    expectTypeOf<SessionOf<typeof config>["role"]>().toEqualTypeOf<"admin">()
    expectTypeOf<SessionOf<typeof config>>().toExtend<Session>()
  })

  it("flows from the config function to useSession()", () => {
    const config = {
      providers: [],
      callbacks: { session: ({ session }: { session: Session }) => ({ ...session, plan: "pro" }) },
    } satisfies QwikAuthConfig
    // Type-level only: QwikAuth$ needs the Qwik optimizer to run.
    type Auth = ReturnType<typeof QwikAuth$<typeof config>>
    type Value = NonNullable<ReturnType<Auth["useSession"]>["value"]>
    expectTypeOf<Value["plan"]>().toEqualTypeOf<string>()
    expectTypeOf<SessionOf<QwikAuthConfig>>().toEqualTypeOf<Session>()
  })
})

describe("the account loader and actions", () => {
  type Auth = ReturnType<typeof QwikAuth$<QwikAuthConfig>>

  it("useAccount yields AccountData or null", () => {
    expectTypeOf<ReturnType<Auth["useAccount"]>["value"]>().toEqualTypeOf<AccountData | null>()
  })

  it("an action's value carries the typed failure next to Qwik's validation failure", () => {
    type Value = NonNullable<ReturnType<Auth["useDeletePasskey"]>["value"]>
    expectTypeOf<Value["ok"]>().toEqualTypeOf<true | undefined>()
    expectTypeOf<Value["error"]>().toEqualTypeOf<
      { type: AccountErrorType; message: string; reason?: string } | undefined
    >()
    expectTypeOf<Value["signInUrl"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Value["formErrors"]>().toExtend<string[] | undefined>()
  })

  it("the password actions carry their own typed failure", () => {
    type Value = NonNullable<ReturnType<Auth["useSignUp"]>["value"]>
    expectTypeOf<Value["ok"]>().toEqualTypeOf<true | undefined>()
    expectTypeOf<Value["error"]>().toEqualTypeOf<
      { type: PasswordErrorType; message: string; reason?: string } | undefined
    >()
    type Change = NonNullable<ReturnType<Auth["useChangePassword"]>["value"]>
    expectTypeOf<Change["error"]>().toEqualTypeOf<
      { type: AccountErrorType; message: string; reason?: string } | undefined
    >()
  })
})
