/**
 * Bench mode of the GraphQL emulators: a successful answer is rendered once per (query text, variables, operation
 * name) and later requests for the same get the same bytes, so that serving a 1,000-row page costs the server
 * about what writing its bytes to the socket costs. A benchmark of a client then measures the client, not the
 * emulator's query engine.
 *
 * The answers are those the emulator would render anyway: an entry holds the bytes of its first rendering and is
 * not served when the data has changed since (`generation`, e.g. after `touch()`/`insert()`) or when it is older
 * than `maxAgeMs` (presigned URLs in an answer expire); the next stored answer for its key replaces it. A
 * generation can come back (withheld rows released, see AiDataset.release), and with it the answers stored for it. Errors and answers that differ from call to call by design
 * (the Organization API's unordered lists, unstable ties) are never stored: the server passes `cacheable: false`.
 */

export interface CachedAnswer {
	status: number;
	body: Buffer;
}

interface Entry extends CachedAnswer {
	generation: number;
	storedAt: number;
}

export interface ResponseCacheStats {
	/** Requests answered from stored bytes. */
	hits: number;
	/** Requests rendered (and stored when cacheable). */
	misses: number;
	/** Time spent rendering the misses (query engine + JSON.stringify), in ms. */
	renderMs: number;
	entries: number;
	bytes: number;
}

export interface ResponseCacheOptions {
	/** Upper bound on stored bytes; the oldest entries go first. Default 512 MiB. */
	maxBytes?: number;
	/** Entries older than this are rendered again. Default 30 minutes (presigned URLs live an hour). */
	maxAgeMs?: number;
}

const MAX_RECORDED_KEYS = 100_000;

export class ResponseCache {
	private readonly entries = new Map<string, Entry>();
	private readonly maxBytes: number;
	private readonly maxAgeMs: number;
	private bytes = 0;
	private hits = 0;
	private misses = 0;
	private renderMs = 0;
	/** Keys answered since `startRecording()`, in order; undefined while not recording. */
	private recording: string[] | undefined;

	constructor(options: ResponseCacheOptions = {}) {
		this.maxBytes = options.maxBytes ?? 512 * 1024 * 1024;
		this.maxAgeMs = options.maxAgeMs ?? 30 * 60 * 1000;
	}

	/** The key of a GraphQL request: the exact query text, variables as sent (key order kept) and operation name. */
	static keyOf(request: { query?: unknown; variables?: unknown; operationName?: unknown }): string {
		return JSON.stringify([
			request.query ?? null,
			request.variables ?? null,
			request.operationName ?? null,
		]);
	}

	/** The GraphQL request a key stands for (the inverse of `keyOf`), e.g. to send it again. */
	static requestOf(key: string): { query: unknown; variables: unknown; operationName: unknown } {
		const [query, variables, operationName] = JSON.parse(key) as unknown[];
		return { query, variables, operationName };
	}

	/**
	 * Keeps the key of every request answered from now on, stored or rendered, in order (at most
	 * MAX_RECORDED_KEYS), until `stopRecording()`: which requests a client under test sent, so that a bare client
	 * can send the very same ones.
	 */
	startRecording(): void {
		this.recording = [];
	}

	stopRecording(): string[] {
		const keys = this.recording ?? [];
		this.recording = undefined;
		return keys;
	}

	/**
	 * The stored answer for `key`, or renders one with `render` (timed as a miss) and stores it when `render` says it
	 * is cacheable.
	 */
	answer(
		key: string,
		generation: number,
		render: () => { status: number; body: unknown; cacheable: boolean },
	): CachedAnswer {
		if (this.recording && this.recording.length < MAX_RECORDED_KEYS) this.recording.push(key);
		const now = Date.now();
		const stored = this.entries.get(key);
		if (stored && stored.generation === generation && now - stored.storedAt <= this.maxAgeMs) {
			this.hits++;
			return stored;
		}
		this.misses++;
		const started = performance.now();
		const rendered = render();
		const body = Buffer.from(JSON.stringify(rendered.body), 'utf8');
		this.renderMs += performance.now() - started;
		const answer = { status: rendered.status, body };
		if (rendered.cacheable && rendered.status === 200 && body.length <= this.maxBytes) {
			// A stale entry is replaced only by a stored answer: an answer not worth storing (e.g. while rows are
			// withheld) leaves the entry of the data it was rendered for, which may apply again.
			if (stored) this.remove(key, stored);
			this.entries.set(key, { ...answer, generation, storedAt: now });
			this.bytes += body.length;
			for (const [oldKey, oldEntry] of this.entries) {
				if (this.bytes <= this.maxBytes) break;
				this.remove(oldKey, oldEntry);
			}
		}
		return answer;
	}

	stats(): ResponseCacheStats {
		return {
			hits: this.hits,
			misses: this.misses,
			renderMs: Math.round(this.renderMs),
			entries: this.entries.size,
			bytes: this.bytes,
		};
	}

	clear(): void {
		this.entries.clear();
		this.bytes = 0;
	}

	private remove(key: string, entry: Entry): void {
		this.entries.delete(key);
		this.bytes -= entry.body.length;
	}
}
