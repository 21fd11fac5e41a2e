/**
 * Set-ups of every n8n version at once, for an e2e file whose set-up is mostly waiting (poll intervals, rows produced
 * at a fixed pace, restarts): the first call starts them all, so one version's waits overlap the other's, and each
 * version's `beforeAll` awaits its own. A failed set-up fails that version's tests only (its rejection is awaited
 * there, never left unhandled), and should release what it made before rethrowing.
 */
export function concurrentSetUps<T>(
	versions: readonly string[],
	setUp: (version: string) => Promise<T>,
): (version: string) => Promise<T> {
	const started = new Map<string, Promise<T>>();
	return (version) => {
		if (started.size === 0) {
			for (const each of versions) {
				const promise = setUp(each);
				promise.catch(() => undefined);
				started.set(each, promise);
			}
		}
		const promise = started.get(version);
		if (!promise) throw new Error(`no set-up for n8n ${version}`);
		return promise;
	};
}
