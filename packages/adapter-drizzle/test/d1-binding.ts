/**
 * A D1 binding for tests in Node that survives a reset of Miniflare's proxy.
 *
 * `Miniflare#getD1Database` hands Node a proxy whose every object (the binding, each prepared
 * and bound statement) is an address in a map held by one Durable Object inside workerd. When
 * workerd resets that object (seen once in CI, under heavy load), the map is empty and every
 * address handed out before is dead: each later call fails with `AssertionError` from
 * Miniflare's reviver, and the D1 database itself (its own object) is untouched. A Worker never
 * meets this; it talks to D1 directly.
 *
 * So the statements here are built in Node and only become workerd objects when they run:
 * the binding is fetched again and the call is made once more when the proxy was reset. A call
 * that failed that way never reached the database (the reviver runs before the method), so the
 * second try cannot write twice. The SQL and its answers are D1's own, from workerd.
 */
import type { Miniflare } from "miniflare"

type Binding = Awaited<ReturnType<Miniflare["getD1Database"]>>
type NativeStatement = ReturnType<Binding["prepare"]>

/** Whether `error` is Miniflare's proxy losing its objects (not an answer of the database). */
const proxyWasReset = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === "ERR_ASSERTION"

export class ResilientD1 {
  #binding: Promise<Binding>

  constructor(
    private readonly mf: Miniflare,
    private readonly name: string,
  ) {
    this.#binding = mf.getD1Database(name)
  }

  /** Runs `call` on the binding; once more on a fresh binding when the proxy was reset. */
  async withBinding<T>(call: (binding: Binding) => Promise<T>): Promise<T> {
    try {
      return await call(await this.#binding)
    } catch (error) {
      if (!proxyWasReset(error)) throw error
      process.stderr.write(`[test] Miniflare's proxy was reset; the D1 binding is fetched again\n`)
      this.#binding = this.mf.getD1Database(this.name)
      return await call(await this.#binding)
    }
  }

  prepare(query: string): ResilientStatement {
    return new ResilientStatement(this, query, [])
  }

  batch(statements: ResilientStatement[]): Promise<unknown[]> {
    return this.withBinding((binding) =>
      binding.batch(statements.map((statement) => statement.on(binding))),
    )
  }

  exec(query: string): Promise<unknown> {
    return this.withBinding((binding) => binding.exec(query))
  }
}

export class ResilientStatement {
  constructor(
    private readonly database: ResilientD1,
    private readonly query: string,
    private readonly params: unknown[],
  ) {}

  bind(...params: unknown[]): ResilientStatement {
    return new ResilientStatement(this.database, this.query, params)
  }

  /** This statement as a workerd object of `binding`. */
  on(binding: Binding): NativeStatement {
    const prepared = binding.prepare(this.query)
    return this.params.length > 0 ? prepared.bind(...this.params) : prepared
  }

  all(): Promise<unknown> {
    return this.database.withBinding((binding) => this.on(binding).all())
  }

  raw(options?: { columnNames?: boolean }): Promise<unknown> {
    return this.database.withBinding((binding) =>
      options?.columnNames ? this.on(binding).raw({ columnNames: true }) : this.on(binding).raw(),
    )
  }

  run(): Promise<unknown> {
    return this.database.withBinding((binding) => this.on(binding).run())
  }

  first(column?: string): Promise<unknown> {
    return this.database.withBinding((binding) =>
      column === undefined ? this.on(binding).first() : this.on(binding).first(column),
    )
  }
}
