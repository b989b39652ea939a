/**
 * The store's two ways to reach Redis behind one interface: a single node-redis client
 * (`createClient`), or a node-redis cluster client (`createCluster`), whose `sendCommand`
 * takes the routing key first. The cluster side also knows which master serves a key (so a
 * timeout pauses that node only) and recovers from a frozen master, which node-redis does not
 * do by itself.
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
import { keySlot } from "./key-slot.js"

/** node-redis's single-node client, as far as the store uses it. */
export interface RedisCommandClient {
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>
  /**
   * node-redis: `false` while the connection is down (before `connect()`, or reconnecting).
   * A command sent then would wait in the client's offline queue until the timeout.
   */
  readonly isReady?: boolean
}

interface ClusterNodeView {
  readonly address: string
  readonly host?: string
  readonly port?: number
  /** The node's own connection, once made. */
  readonly client?: {
    sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>
  }
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
  /** A new, unconnected cluster client with the same options (and these overrides). */
  duplicate?(overrides?: {
    rootNodes?: { socket: { host: string; port: number } }[]
  }): RedisClusterCommandClient & { connect(): Promise<unknown>; destroy(): void }
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
  /**
   * One command on the very connection to the node serving `key`, bypassing the cluster
   * client's routing policies: node-redis sends `WAIT` to every master and keeps the lowest
   * answer, but `WAIT` must ask the node (and connection) that took our write.
   */
  sendOnKeyNode(key: string, args: string[], timeoutMs: number): Promise<unknown>
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
    sendOnKeyNode: (_key, args, timeout) => client.sendCommand(args, { timeout }),
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

type OwnedCluster = RedisClusterCommandClient & { connect(): Promise<unknown>; destroy(): void }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class ClusterTransport implements Transport {
  readonly cluster = true
  #client: RedisClusterCommandClient
  /** The replacement the store built (destroyed when replaced again, or on close). */
  #owned: OwnedCluster | undefined
  #recovery: Promise<void> | undefined
  #closed = false
  readonly #connectTimeoutMs: number
  readonly #recoveryMs: number

  constructor(
    client: RedisClusterCommandClient,
    options: { connectTimeoutMs: number; recoveryMs: number },
  ) {
    this.#client = client
    this.#connectTimeoutMs = options.connectTimeoutMs
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

  sendOnKeyNode(key: string, args: string[], timeout: number): Promise<unknown> {
    const node = this.#client.slots[keySlot(key)]?.master.client
    if (!node) return Promise.reject(new Error("no connection to the node serving the key"))
    return node.sendCommand(args, { timeout })
  }

  timedOut(node: string): void {
    if (node === "" || this.#closed || typeof this.#client.duplicate !== "function") return
    this.#recovery ??= this.#recover(node).finally(() => {
      this.#recovery = undefined
    })
  }

  close(): void {
    this.#closed = true
    this.#owned?.destroy()
    this.#owned = undefined
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
      ;(fresh as unknown as { on?: (e: string, f: () => void) => void }).on?.("error", () => {})
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
