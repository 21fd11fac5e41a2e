// The order jest starts the e2e files in: the longest first, so that on 2 workers the last file to start is a short
// one and neither worker idles for minutes at the end (jest's own order needs durations from a warm jest cache, and a
// fresh runner has none: it then goes by file size, which puts sip-durability, the longest but 78 lines, among the last).
// Seconds per file on 2 cores, both n8n lines (from CI, or from a run on a machine as busy as CI for the files merged
// or changed since); a file not listed starts first (a new file: measure it and add it).
// No base class (@jest/test-sequencer is jest's own, not a dependency of ours): jest calls sort, and cacheResults
// after the run; no --shard here, and --onlyFailures gets every file (this keeps no record of failures).
const path = require('node:path');

const SECONDS = {
	'editor.test.ts': 115,
	'sip-durability.test.ts': 100,
	'ai-metadata-trigger.test.ts': 80,
	'ai-trigger-durability.test.ts': 90,
	'bench-scheduled-export.test.ts': 70,
	'bench-trigger.test.ts': 70,
	'examples.test.ts': 55,
	'sip-status-trigger.test.ts': 55,
	'ai-agent.test.ts': 50,
	'builtin-nodes.test.ts': 38,
	'readme-examples.test.ts': 38,
	'ai-metadata.test.ts': 27,
	'organization.test.ts': 26,
	'bench-return-all.test.ts': 20,
	'webhook-description.test.ts': 5,
};

class LongestFirstSequencer {
	sort(tests) {
		const seconds = (test) => SECONDS[path.basename(test.path)] ?? Number.POSITIVE_INFINITY;
		return [...tests].sort((a, b) => seconds(b) - seconds(a) || a.path.localeCompare(b.path));
	}

	allFailedTests(tests) {
		return this.sort(tests);
	}

	cacheResults() {}
}

module.exports = LongestFirstSequencer;
