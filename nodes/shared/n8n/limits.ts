/** Limits every node shares, so one number means one thing across the package. */

/** Max Concurrent Requests: the most a user may set for any node (one Hasura or Apollo server, one n8n process). */
export const MAX_CONCURRENT_REQUESTS = 16;

/**
 * Requests in flight at once in an action node (pages of Get Many, look-up batches of Get and Download Files): the
 * fastest or nearly at every latency measured (docs/performance.md), and as much as one node should ask of an API.
 */
export const DEFAULT_ACTION_CONCURRENCY = 8;

/** The trigger pages only on a catch-up, a scheduled export where 8 was the fastest (docs/performance.md). */
export const DEFAULT_TRIGGER_CONCURRENCY = 8;

/** Max Retries: the default and the most a user may set, for every node's GraphQL and download requests. */
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_RETRIES = 10;

/** Process-wide maps keyed by trigger node (rate limiters, replay stores, signing keys) hold at most this many. */
export const MAX_TRIGGER_SCOPES = 1000;
