/**
 * Limits every node shares, so one number means one thing across the package.
 */

/** Max Concurrent Requests: the most a user may set for any node (one Hasura or Apollo server, one n8n process). */
export const MAX_CONCURRENT_REQUESTS = 16;

/**
 * Default concurrency of the action nodes: requests in flight at once, pages of Get Many and the look-up batches
 * of Get (and Download Files) for several input items. Chosen by measurement (docs/performance.md, Return All at
 * 0, 20, 50 and 100 ms): 8 was fastest or within a fifth of the fastest at every latency, and it is as much as one
 * node execution should ask of a partner's API at once (16 was faster only over long distances, for twice the load).
 */
export const DEFAULT_ACTION_CONCURRENCY = 8;

/**
 * The trigger's default: it pages only when a poll finds more than one page of new records (a first activation, a
 * catch-up), and then it is a scheduled export, where 8 in flight was the fastest measured (docs/performance.md,
 * Scheduled export); the same bound on what one node asks of a partner's API as the action nodes'.
 */
export const DEFAULT_TRIGGER_CONCURRENCY = 8;

/** Max Retries: the default and the most a user may set, for every node's GraphQL and download requests. */
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_RETRIES = 10;

/** Process-wide maps keyed by trigger node (rate limiters, replay stores, signing keys) hold at most this many. */
export const MAX_TRIGGER_SCOPES = 1000;
