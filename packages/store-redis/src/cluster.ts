/**
 * The store's two ways to reach Redis behind one interface: a single node-redis client
 * (`createClient`), or a node-redis cluster client (`createCluster`), whose `sendCommand`
 * takes the routing key first. The cluster side also knows which master serves a key (so a
 * timeout pauses that node only), sends writes that wait for a replica on connections of
 * their own (`replica-confirm.ts`), and recovers from a frozen master, which node-redis does
 * not do by itself.
 *
 * **The frozen master.** A master that stops answering on an open connection (SIGSTOP, a
 * hung host) keeps its connection "ready": node-redis sends it every command for its slots,
 * and nothing tells it the replica was promoted (no MOVED ever comes back from a node that
 * does not answer). Its own slot-map refresh can even ask the frozen node and wait on it with
 * no timeout, and later refreshes wait on that one. So after a command to a node times out,
 * the store builds a fresh cluster client of its own (`duplicate()`, rooted at the other
 * nodes, connect bounded by a timer) and checks its slot map: once the frozen node no longer
 * serves any slot the store sends through the fresh client. The app's client is left as it
 * is; replacement clients the store made are destroyed when replaced or on `close()`.
 */
import { within } from "./deadline.js"
import { keySlot } from "./key-slot.js"
import { type ConfirmedReply, type LaneConnection, ReplicaLanes } from "./replica-confirm.js"

/** node-redis's single-node client, as far as the store uses it. */
export interface RedisCommandClient {
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>
  /**
   * node-redis: `false` while the connection is down (before `connect()`, or reconnecting).
   * A command sent then would wait in the client's offline queue until the timeout.
   */
  readonly isReady?: boolean
}

/** A cluster node's own connection (a node-redis single-node client), once made. */
interface NodeClient {
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>
  readonly isReady?: boolean
  /** A new, unconnected client to the same node with the same options (and these overrides). */
  duplicate?(overrides?: { disableOfflineQueue?: boolean }): NodeClient & {
    connect(): Promise<unknown>
    destroy(): void
    on?(event: "error", listener: (error: unknown) => void): unknown
  }
}

export interface ClusterNodeView {
  readonly address: string
  readonly host?: string
  readonly port?: number
  readonly client?: NodeClient
}

/** node-redis's cluster client (`createCluster`, v5 or later), as far as the store uses it. */
export interface RedisClusterCommandClient {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
    options?: { timeout?: number },
  ): Promise<unknown>
  readonly isReady?: boolean
  /** The slot map: the master of each of the 16384 slots. */
  readonly slots: readonly ({ readonly master: ClusterNodeView } | undefined)[]
  readonly masters: readonly ClusterNodeView[]
  readonly replicas?: readonly ClusterNodeView[]
  /** The node's connection, made now if the client has none yet (`minimizeConnections`). */
  nodeClient?(node: ClusterNodeView): Promise<NodeClient>
  /** A new, unconnected cluster client with the same options (and these overrides). */
  duplicate?(overrides?: { rootNodes?: { socket: { host: string; port: number } }[] }): OwnedCluster
}

/** A cluster client the store made (and so closes). */
export type OwnedCluster = RedisClusterCommandClient & {
  connect(): Promise<unknown>
  destroy(): void
  on?(event: "error", listener: (error: unknown) => void): unknown
}

export const isClusterClient = (
  client: RedisCommandClient | RedisClusterCommandClient,
): client is RedisClusterCommandClient => "masters" in client && "slots" in client

/** How the store sends one command; `node` names where it goes (for a per-node pause). */
export interface Transport {
  readonly cluster: boolean
  readonly isReady: boolean | undefined
  /** The address of the node that serves `key` now ("" on a single node, or when unknown). */
  nodeOf(key: string | undefined): string
  send(
    firstKey: string | undefined,
    readonly: boolean,
    args: string[],
    timeoutMs: number,
  ): Promise<unknown>
  /** A command to `node` timed out (the cluster side starts its recovery). */
  timedOut(node: string): void
  close(): void
}

export function singleNode(client: RedisCommandClient): Transport {
  return {
    cluster: false,
    get isReady() {
      return client.isReady
    },
    nodeOf: () => "",
    send: (_firstKey, _readonly, args, timeout) => client.sendCommand(args, { timeout }),
    timedOut: () => {},
    close: () => {},
  }
}

/** Groups keys by their cluster slot: one `MGET` per group can go to one node. */
export function groupBySlot(keys: readonly string[]): number[][] {
  const groups = new Map<number, number[]>()
  keys.forEach((key, i) => {
    const slot = keySlot(key)
    const group = groups.get(slot)
    if (group) group.push(i)
    else groups.set(slot, [i])
  })
  return [...groups.values()]
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A Redis error reply saying the key's slot is served elsewhere now. */
const isRedirect = (error: unknown) => /^(MOVED|ASK) /.test(String((error as Error)?.message))

export class ClusterTransport implements Transport {
  readonly cluster = true
  #client: RedisClusterCommandClient
  /** The replacement the store built (destroyed when replaced again, or on close). */
  #owned: OwnedCluster | undefined
  #recovery: Promise<void> | undefined
  #closed = false
  readonly #commandTimeoutMs: number
  readonly #connectTimeoutMs: number
  readonly #recoveryMs: number
  readonly #lanes: ReplicaLanes

  constructor(
    client: RedisClusterCommandClient,
    options: {
      connectTimeoutMs: number
      recoveryMs: number
      commandTimeoutMs: number
      replicaConfirmMs: number
    },
  ) {
    this.#client = client
    this.#commandTimeoutMs = options.commandTimeoutMs
    this.#connectTimeoutMs = options.connectTimeoutMs
    this.#lanes = new ReplicaLanes({
      confirmMs: options.replicaConfirmMs,
      commandTimeoutMs: options.commandTimeoutMs,
    })
    this.#recoveryMs = options.recoveryMs
  }

  get isReady() {
    return this.#client.isReady
  }

  nodeOf(key: string | undefined): string {
    if (key === undefined) return ""
    return this.#client.slots[keySlot(key)]?.master.address ?? ""
  }

  send(firstKey: string | undefined, readonly: boolean, args: string[], timeout: number) {
    return this.#client.sendCommand(firstKey, readonly, args, { timeout })
  }

  /**
   * A write on the store's own connection to the key's master, confirmed by a replica when
   * `needsConfirm(reply)` (see `replica-confirm.ts`). Not sent once `deadline` (epoch ms) has
   * passed. A `MOVED` reply (the slot is served elsewhere now) is refused, and a read of the
   * key through the app's client makes node-redis follow it and reread its slot map, so the
   * next write goes to the right master.
   */
  async sendConfirmed(
    key: string,
    args: string[],
    needsConfirm: (reply: unknown) => boolean,
    deadline: number,
  ): Promise<ConfirmedReply> {
    const client = this.#client
    const master = client.slots[keySlot(key)]?.master
    if (!master) throw new Error("no node serves the key's slot")
    try {
      return await this.#lanes.write(
        master.address,
        () => this.#openLane(client, master),
        args,
        needsConfirm,
        deadline,
      )
    } catch (error) {
      if (isRedirect(error)) {
        this.send(key, false, ["EXISTS", key], this.#commandTimeoutMs).catch(() => {})
      }
      throw error
    }
  }

  timedOut(node: string): void {
    if (node === "" || this.#closed || typeof this.#client.duplicate !== "function") return
    this.#recovery ??= this.#recover(node).finally(() => {
      this.#recovery = undefined
    })
  }

  close(): void {
    this.#closed = true
    this.#lanes.close()
    this.#owned?.destroy()
    this.#owned = undefined
  }

  /** A connection of the store's own to `master`: a duplicate of the client's own to it. */
  async #openLane(
    client: RedisClusterCommandClient,
    master: ClusterNodeView,
  ): Promise<LaneConnection> {
    const base = master.client ?? (await client.nodeClient?.(master))
    if (typeof base?.duplicate !== "function") {
      throw new Error("the cluster client cannot open a connection to the node")
    }
    // Offline queue off: while this connection is down, a write fails at once instead of
    // waiting out its time in a queue.
    const connection = base.duplicate({ disableOfflineQueue: true })
    connection.on?.("error", () => {})
    try {
      // Bounded: a frozen node accepts the TCP connection (its backlog) and never says hello.
      await within(
        connection.connect(),
        this.#connectTimeoutMs,
        () => new Error("connecting to the node timed out"),
      )
    } catch (error) {
      connection.destroy()
      throw error
    }
    if (this.#closed) {
      connection.destroy()
      throw new Error("the store was closed")
    }
    return connection
  }

  /**
   * Until `node` serves no slot in a freshly read slot map (its replica promoted), or the
   * recovery window ends: build a client rooted at the other nodes, connect it within the
   * bound, and switch to it once the map has moved on. A fresh client that still sees `node`
   * as a master (the failover has not happened yet) is dropped and the next try waits a bit.
   */
  async #recover(node: string): Promise<void> {
    const deadline = Date.now() + this.#recoveryMs
    while (!this.#closed && Date.now() < deadline) {
      const current = this.#client
      if (!current.masters.some((m) => m.address === node)) return // already moved on
      const others = [...current.masters, ...(current.replicas ?? [])]
        .filter((n) => n.address !== node && n.host !== undefined && n.port !== undefined)
        .map((n) => ({ socket: { host: n.host!, port: n.port! } }))
      const fresh = current.duplicate!(others.length > 0 ? { rootNodes: others } : undefined)
      fresh.on?.("error", () => {})
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        await Promise.race([
          fresh.connect(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("connect timed out")), this.#connectTimeoutMs)
          }),
        ])
        if (!this.#closed && !fresh.masters.some((m) => m.address === node)) {
          const previous = this.#owned
          this.#client = fresh
          this.#owned = fresh
          previous?.destroy()
          this.#lanes.retain(new Set(fresh.masters.map((m) => m.address)))
          return
        }
      } catch {
        // Could not read a slot map in time: try again.
      } finally {
        clearTimeout(timer)
      }
      if (this.#owned !== fresh) fresh.destroy()
      await sleep(Math.min(250, this.#connectTimeoutMs))
    }
  }
}
