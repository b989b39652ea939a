/**
 * Redis Cluster: getting away from a master that stopped answering (frozen: SIGSTOP, a hung
 * host) or whose connection is gone (killed, crashed), once its replica is promoted — which
 * node-redis, by itself, learns late or never.
 *
 * - **Frozen.** Its connection stays "ready": node-redis sends it every command for its slots,
 *   and nothing tells it of the failover (no `MOVED` comes back from a node that does not
 *   answer). Its own slot-map refresh can even pick the frozen node and wait on it with no
 *   timeout.
 * - **Dead.** With the offline queue off its commands fail at once, but node-redis rereads the
 *   slot map only 5 s after the first reconnection attempt (its
 *   `topologyRefreshOnReconnectionAttemptStrategy`): calls resumed 2–4 s after the promotion.
 *
 * So when a command to a master times out or finds its connection down, the store watches
 * that node: every `POLL_MS` it reads the slot map (`CLUSTER SLOTS`) from another node over the
 * connection the client already has to it — no new connection — and once the node serves no
 * slot, it connects one fresh cluster client (`duplicate()`, rooted at the other nodes, its
 * connect bounded and reading the slot map only) and sends through it from then on. The watch
 * ends there, or as soon as the node answers again (a `PING` on its own connection: a master
 * that was only busy, a dead one back), or when `recoveryMs` have passed. The fresh client is
 * made when the watch starts but connected only for a map without the node, and a failed
 * connect is retried after 0.25 s, then 0.5 s, 1 s…: a timeout on a healthy but busy master
 * opens no connection at all (it opened one cluster client every 0.5 s for 30 s).
 */
import type { ClusterNodeView, OwnedCluster, RedisClusterCommandClient } from "./client-types.js"
import { within } from "./deadline.js"

/** How often a watched node's slot map is read: a resume within 1 s of the promotion. */
const POLL_MS = 100
/**
 * After a fresh client could not be built, the wait before the next try (doubled on each
 * failure, as is the time the next one gets to connect: a loaded machine gets more). At most
 * seven tries in the default 30 s watch.
 */
const REBUILD_AFTER_MS = 250

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The master of each slot range, as `host:port` (how node-redis names a node's address). */
function mastersOf(reply: unknown): string[] | undefined {
  if (!Array.isArray(reply)) return undefined
  const masters: string[] = []
  for (const range of reply) {
    const master = Array.isArray(range) ? range[2] : undefined
    if (!Array.isArray(master)) return undefined
    masters.push(`${String(master[0])}:${String(master[1])}`)
  }
  return masters
}

export interface RecoveryHost {
  /** The cluster client the store sends through now. */
  current(): RedisClusterCommandClient
  /** Send through `fresh` from now on (it has a slot map without the watched node). */
  switchTo(fresh: OwnedCluster): void
  isClosed(): boolean
}

export class ClusterRecovery {
  readonly #host: RecoveryHost
  readonly #connectTimeoutMs: number
  readonly #recoveryMs: number
  /** One watch per node. */
  readonly #watching = new Map<string, Promise<void>>()

  constructor(host: RecoveryHost, options: { connectTimeoutMs: number; recoveryMs: number }) {
    this.#host = host
    this.#connectTimeoutMs = options.connectTimeoutMs
    this.#recoveryMs = options.recoveryMs
  }

  /**
   * A command to `node` timed out or found its connection down: watch it, once at a time, if
   * the client in use still has it as a master (a late timeout from a node already left
   * behind starts nothing).
   */
  watch(node: string): void {
    if (node === "" || this.#host.isClosed() || this.#watching.has(node)) return
    const current = this.#host.current()
    if (typeof current.duplicate !== "function") return
    if (!current.masters.some((m) => m.address === node)) return
    this.#watching.set(
      node,
      this.#watch(node).finally(() => this.#watching.delete(node)),
    )
  }

  async #watch(node: string): Promise<void> {
    const deadline = Date.now() + this.#recoveryMs
    let answered = false
    let probing = false
    let nextBuild = 0
    let failedBuilds = 0
    // Built now, connected only once the map has moved on: making a node-redis cluster client
    // costs 50-150 ms of this process's time on a loaded machine, paid while the failover is
    // still under way rather than after it.
    let fresh: OwnedCluster | undefined = this.#freshClient(this.#host.current(), node)
    try {
      for (let round = 0; !this.#host.isClosed() && Date.now() < deadline; round++) {
        const started = Date.now()
        const current = this.#host.current()
        const watched = current.masters.find((m) => m.address === node)
        if (!watched) return // the client in use has moved on (switched, or refreshed by itself)
        const masters = await this.#readSlotMap(current, node, round)
        if (masters && !masters.includes(node)) {
          if (Date.now() >= nextBuild) {
            const connectMs = Math.min(
              this.#connectTimeoutMs * 2 ** failedBuilds,
              Math.max(1, deadline - Date.now()),
            )
            const candidate = fresh ?? this.#freshClient(current, node)
            fresh = undefined
            if (await this.#connectAndSwitch(candidate, node, connectMs)) return
            nextBuild = Date.now() + REBUILD_AFTER_MS * 2 ** failedBuilds++
          }
        } else if (answered) {
          return // still its slots' master, and answering: only busy, or back
        }
        if (!probing && watched.client) {
          // One PING at a time on the node's own connection: answered once a busy script ends
          // or a dead node is back; a frozen one holds it until the watch ends, a dead one
          // (offline) refuses it at once and the next round asks again.
          probing = true
          const timeout = Math.max(1, deadline - Date.now())
          watched.client.sendCommand(["PING"], { timeout }).then(
            () => {
              answered = true
            },
            () => {
              probing = false
            },
          )
        }
        await sleep(Math.max(0, started + POLL_MS - Date.now()))
      }
    } finally {
      fresh?.destroy()
    }
  }

  /** The masters of the slot map as a node other than `node` sees it, over the open connection. */
  async #readSlotMap(current: RedisClusterCommandClient, node: string, round: number) {
    const others = [...current.masters, ...(current.replicas ?? [])].filter(
      (n): n is ClusterNodeView & { client: NonNullable<ClusterNodeView["client"]> } =>
        n.address !== node && n.client !== undefined && n.client.isReady !== false,
    )
    if (others.length === 0) return undefined
    // A different node each round: one that does not answer costs one round, not the watch.
    const asked = others[round % others.length]!
    try {
      const reply = await within(
        asked.client.sendCommand(["CLUSTER", "SLOTS"], { timeout: this.#connectTimeoutMs }),
        this.#connectTimeoutMs,
        () => new Error("CLUSTER SLOTS timed out"),
      )
      return mastersOf(reply)
    } catch {
      return undefined
    }
  }

  /**
   * A new, unconnected client rooted at the nodes other than `node`. Its connect reads the slot
   * map only (`minimizeConnections`): the connections to the masters open side by side once it
   * is in use, so the first call to the new master waits for that one alone.
   */
  #freshClient(current: RedisClusterCommandClient, node: string): OwnedCluster {
    const rootNodes = [...current.masters, ...(current.replicas ?? [])]
      .filter((n) => n.address !== node && n.host !== undefined && n.port !== undefined)
      .map((n) => ({ socket: { host: n.host!, port: n.port! } }))
    const fresh = current.duplicate!({
      ...(rootNodes.length > 0 && { rootNodes }),
      minimizeConnections: true,
    })
    fresh.on?.("error", () => {})
    return fresh
  }

  /** Connects `fresh` within `connectMs` and sends through it, if its map has moved on. */
  async #connectAndSwitch(fresh: OwnedCluster, node: string, connectMs: number): Promise<boolean> {
    try {
      await within(fresh.connect(), connectMs, () => new Error("connect timed out"))
      if (!this.#host.isClosed() && !fresh.masters.some((m) => m.address === node)) {
        for (const master of fresh.masters) fresh.nodeClient?.(master).catch(() => {})
        this.#host.switchTo(fresh)
        return true
      }
    } catch {
      // No slot map in time: the next try comes after a longer wait.
    }
    fresh.destroy()
    return false
  }
}
