/**
 * The store's two ways to reach Redis behind one interface: a single node-redis client
 * (`createClient`), or a node-redis cluster client (`createCluster`), whose `sendCommand`
 * takes the routing key first. The cluster side also knows which master serves a key (so a
 * timeout pauses that node only), sends writes that wait for a replica on connections of
 * their own (`replica-confirm.ts`), and gets away from a failed master sooner than node-redis
 * does by itself (`cluster-recovery.ts`). The app's client is left as it is; the connections
 * and the replacement client the store made are closed when replaced or on `close()`.
 */
import type {
  ClusterNodeView,
  OwnedCluster,
  RedisClusterCommandClient,
  RedisCommandClient,
} from "./client-types.js"
import { ClusterRecovery } from "./cluster-recovery.js"
import { within } from "./deadline.js"
import { keySlot } from "./key-slot.js"
import { type ConfirmedReply, type LaneConnection, ReplicaLanes } from "./replica-confirm.js"

export type {
  ClusterNodeView,
  OwnedCluster,
  RedisClusterCommandClient,
  RedisCommandClient,
} from "./client-types.js"

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
  /** A command to `node` timed out (the cluster side watches it). */
  timedOut(node: string): void
  /** A command to `node` failed without an answer from Redis (the cluster side checks why). */
  failed(node: string): void
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
    failed: () => {},
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

/** A Redis error reply saying the key's slot is served elsewhere now. */
const isRedirect = (error: unknown) => /^(MOVED|ASK) /.test(String((error as Error)?.message))

export class ClusterTransport implements Transport {
  readonly cluster = true
  #client: RedisClusterCommandClient
  /** The replacement the store built (destroyed when replaced again, or on close). */
  #owned: OwnedCluster | undefined
  #closed = false
  readonly #commandTimeoutMs: number
  readonly #connectTimeoutMs: number
  readonly #lanes: ReplicaLanes
  readonly #recovery: ClusterRecovery

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
    this.#recovery = new ClusterRecovery(
      {
        current: () => this.#client,
        switchTo: (fresh) => this.#switchTo(fresh),
        isClosed: () => this.#closed,
      },
      { connectTimeoutMs: options.connectTimeoutMs, recoveryMs: options.recoveryMs },
    )
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
    if (!this.#closed) this.#recovery.watch(node)
  }

  failed(node: string): void {
    if (this.#closed) return
    const master = this.#client.masters.find((m) => m.address === node)
    if (master?.client?.isReady === false) this.#recovery.watch(node)
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

  #switchTo(fresh: OwnedCluster): void {
    const previous = this.#owned
    this.#client = fresh
    this.#owned = fresh
    previous?.destroy()
    this.#lanes.retain(new Set(fresh.masters.map((m) => m.address)))
  }
}
