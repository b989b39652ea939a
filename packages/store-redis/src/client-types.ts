/**
 * The node-redis clients as far as the store uses them: a single node, a cluster, a cluster
 * node's own connection. Only types, so the transport and the recovery watch both name them.
 */
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
export interface NodeClient {
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
  duplicate?(overrides?: {
    rootNodes?: { socket: { host: string; port: number } }[]
    minimizeConnections?: boolean
  }): OwnedCluster
}

/** A cluster client the store made (and so closes). */
export type OwnedCluster = RedisClusterCommandClient & {
  connect(): Promise<unknown>
  destroy(): void
  on?(event: "error", listener: (error: unknown) => void): unknown
}
