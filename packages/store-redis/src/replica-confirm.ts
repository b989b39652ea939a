/**
 * Redis Cluster: writes of security state (`consumeOnce`, `set`) confirmed by a replica
 * (`WAIT 1`) before they are answered for, without holding up anything else.
 *
 * **Why a connection of its own.** `WAIT` blocks the connection it is sent on until a replica
 * acknowledges or its timeout passes, and it only counts the writes made on that very
 * connection. node-redis sends everything for a master down one connection, so a `WAIT` there
 * holds every read and counter queued behind it: with the replica frozen, each `WAIT` waits out
 * its whole timeout and the master's other traffic times out with it. So each master gets one
 * extra connection of the store's own (a `duplicate()` of the app's connection to it, made on
 * first use), and only these writes and their `WAIT`s travel on it.
 *
 * **One `WAIT` per batch.** The writes that arrive while a batch is on the wire go out together
 * as the next batch (pipelined), followed by one `WAIT` that covers them all: `WAIT` waits for
 * the connection's latest write, and everything before it on that connection is then
 * replicated too. A `WAIT` per write would queue them one behind another (100 concurrent
 * writes: 100 waits in a row); a pool of connections would cost one connection per concurrent
 * write. A write arriving during a batch's `WAIT` waits for it, so a write is answered within
 * two `WAIT` timeouts and two round trips.
 *
 * Not `WAITAOF` (Redis 7.2): it holds its connection just as `WAIT` does, needs the
 * append-only file on, and asks for more (a replica's disk) than a failover needs (the
 * replica's memory, which is what a promoted replica serves).
 */

/** A node-redis single-node connection, as far as the lanes use it. */
export interface LaneConnection {
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>
  destroy(): void
}

/** A write's reply, and how many replicas acknowledged it (absent when it needed no wait). */
export interface ConfirmedReply {
  reply: unknown
  acked?: number
}

interface PendingWrite {
  args: string[]
  /** Whether this reply needs a replica's acknowledgement (a first use, a master with replicas). */
  needsConfirm: (reply: unknown) => boolean
  /** Epoch ms after which the caller has given up: not sent if still queued then. */
  deadline: number
  resolve(value: ConfirmedReply): void
  reject(error: unknown): void
}

/** How long a lane whose connection could not be opened refuses writes before trying again. */
const REOPEN_AFTER_MS = 1000

class Lane {
  readonly #open: () => Promise<LaneConnection>
  readonly #confirmMs: number
  readonly #timeoutMs: number
  readonly #queue: PendingWrite[] = []
  #connection: Promise<LaneConnection> | undefined
  #failedAt = 0
  #pumping = false
  #closed = false

  constructor(open: () => Promise<LaneConnection>, confirmMs: number, timeoutMs: number) {
    this.#open = open
    this.#confirmMs = confirmMs
    this.#timeoutMs = timeoutMs
  }

  write(write: PendingWrite): void {
    if (this.#closed) {
      write.reject(new Error("the store's connection to this node was closed"))
      return
    }
    this.#queue.push(write)
    if (!this.#pumping) void this.#pump()
  }

  close(): void {
    this.#closed = true
    for (const write of this.#queue.splice(0)) {
      write.reject(new Error("the store's connection to this node was closed"))
    }
    this.#connection?.then(
      (c) => c.destroy(),
      () => {},
    )
  }

  async #pump(): Promise<void> {
    this.#pumping = true
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        let connection: LaneConnection
        try {
          connection = await this.#connected()
        } catch (error) {
          for (const write of this.#queue.splice(0)) write.reject(error)
          continue
        }
        const now = Date.now()
        const batch = this.#queue.splice(0).filter((write) => {
          if (now < write.deadline) return true
          // Its caller already has a StoreTimeout: a marker written now would be a use nobody
          // was told about.
          write.reject(new Error("the write's time ran out before it was sent"))
          return false
        })
        if (batch.length > 0) await this.#commit(connection, batch, now)
      }
    } finally {
      this.#pumping = false
    }
  }

  /** The writes pipelined, then one `WAIT` for those whose reply asks for it. */
  async #commit(connection: LaneConnection, batch: PendingWrite[], now: number) {
    const replies = await Promise.allSettled(
      batch.map((write) =>
        connection.sendCommand(write.args, { timeout: Math.max(1, write.deadline - now) }),
      ),
    )
    const waiting: [PendingWrite, unknown][] = []
    replies.forEach((settled, i) => {
      const write = batch[i]!
      if (settled.status === "rejected") write.reject(settled.reason)
      else if (write.needsConfirm(settled.value)) waiting.push([write, settled.value])
      else write.resolve({ reply: settled.value })
    })
    if (waiting.length === 0) return
    try {
      const acked = Number(
        await connection.sendCommand(["WAIT", "1", String(this.#confirmMs)], {
          // The server ends the WAIT itself; this only frees the lane from a master that froze.
          timeout: this.#confirmMs + this.#timeoutMs,
        }),
      )
      for (const [write, reply] of waiting) write.resolve({ reply, acked })
    } catch (error) {
      for (const [write] of waiting) write.reject(error)
    }
  }

  #connected(): Promise<LaneConnection> {
    if (this.#connection) return this.#connection
    if (Date.now() - this.#failedAt < REOPEN_AFTER_MS) {
      return Promise.reject(new Error("the store's connection to this node could not be opened"))
    }
    const opening = this.#open()
    this.#connection = opening
    opening.catch(() => {
      this.#failedAt = Date.now()
      if (this.#connection === opening) this.#connection = undefined
    })
    return opening
  }
}

/** One lane (connection and queue) per master, by address. */
export class ReplicaLanes {
  readonly #lanes = new Map<string, Lane>()
  readonly #confirmMs: number
  readonly #timeoutMs: number

  constructor(options: { confirmMs: number; commandTimeoutMs: number }) {
    this.#confirmMs = options.confirmMs
    this.#timeoutMs = options.commandTimeoutMs
  }

  /**
   * Sends `args` (a write) on the store's own connection to the master at `address` (opened by
   * `open` on first use) and, when `needsConfirm(reply)`, waits for one replica to have it.
   */
  write(
    address: string,
    open: () => Promise<LaneConnection>,
    args: string[],
    needsConfirm: (reply: unknown) => boolean,
    deadline: number,
  ): Promise<ConfirmedReply> {
    let lane = this.#lanes.get(address)
    if (!lane) {
      lane = new Lane(open, this.#confirmMs, this.#timeoutMs)
      this.#lanes.set(address, lane)
    }
    const target = lane
    return new Promise((resolve, reject) =>
      target.write({ args, needsConfirm, deadline, resolve, reject }),
    )
  }

  /** Closes the lanes of nodes that are no longer masters (after a failover). */
  retain(masters: ReadonlySet<string>): void {
    for (const [address, lane] of this.#lanes) {
      if (masters.has(address)) continue
      lane.close()
      this.#lanes.delete(address)
    }
  }

  close(): void {
    this.retain(new Set())
  }
}
