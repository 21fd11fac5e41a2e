// The order jest starts the e2e files in: the longest first, so that on 2 workers the last file to start is a short
// one and neither worker idles for minutes at the end (jest's own order needs durations from a warm jest cache, and a
// fresh CI runner has none: it then goes by file size, which put sip-durability, the longest, among the last).
// Seconds per file on CI's 2 cores, both n8n lines (a merged file: its parts' sum less the start-ups it saves); a file
// not listed starts first (a new file: measure it and add it).
// No base class (@jest/test-sequencer is jest's own, not a dependency of ours): jest calls sort, and cacheResults
// after the run; no --shard here, and --onlyFailures gets every file (this keeps no record of failures).
const path = require('node:path');

const SECONDS = {
	'editor.test.ts': 115,
	'sip-durability.test.ts': 100,
	'ai-trigger-durability.test.ts': 87,
	'ai-metadata-trigger.test.ts': 85,
	'bench-scheduled-export.test.ts': 70,
	'examples.test.ts': 55,
	'sip-status-trigger.test.ts': 50,
	'builtin-nodes.test.ts': 38,
	'readme-examples.test.ts': 38,
	'ai-metadata.test.ts': 27,
	'organization.test.ts': 26,
	'bench-return-all.test.ts': 20,
	'ai-agent.test.ts': 15,
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
