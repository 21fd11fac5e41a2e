/**
 * Limits every node shares, so one number means one thing across the package.
 */

/** Max Concurrent Requests: the most a user may set for any node (one Hasura or Apollo server, one n8n process). */
export const MAX_CONCURRENT_REQUESTS = 16;

/**
 * Default concurrency of the action nodes: requests in flight at once, pages of Get Many and the look-up batches
 * of Get (and Download Files) for several input items.
 */
export const DEFAULT_ACTION_CONCURRENCY = 4;

/** The trigger polls in the background of every active workflow, so it asks for less by default. */
export const DEFAULT_TRIGGER_CONCURRENCY = 2;

/** Max Retries: the default and the most a user may set, for every node's GraphQL and download requests. */
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_RETRIES = 10;

/** Process-wide maps keyed by trigger node (rate limiters, replay stores, signing keys) hold at most this many. */
export const MAX_TRIGGER_SCOPES = 1000;
