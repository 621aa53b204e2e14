package dev.reed.client;

/**
 * What the coordinator does with servers its host integrity check flags (anycast edges, query
 * proxies, spoofed replies: their landmark RTTs are impossible for one host, so their predicted RTT
 * is unreliable). The SDK asks for it with every ranking request and keeps it in its own order.
 */
public enum SuspectServers {
  /** Ranked by prediction like any other server. */
  INCLUDE,
  /** After every unflagged server, in the coordinator's list and in the probe order (the default). */
  DEMOTE,
  /** Not listed at all. */
  HIDE
}
