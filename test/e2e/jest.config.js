// End-to-end tests against real n8n installs (scripts/install-n8n.sh); slow, so kept apart from
// the unit suite. Run: npx jest -c test/e2e/jest.config.js   (E2E_N8N_VERSIONS=1.123.81 to narrow)
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.test.ts'],
	// The queue-mode suite runs only under `npm run e2e:queue` (which sets E2E_QUEUE=1).
	testPathIgnorePatterns:
		process.env.E2E_QUEUE === '1' ? ['/node_modules/'] : ['/node_modules/', '/test/e2e/queue/'],
	testEnvironment: 'node',
	globalSetup: '<rootDir>/dev/e2e/global-setup.ts',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// Two files at a time: much of an e2e file is waiting (n8n starting, outages, the sender's retry schedule), so on
	// CI's 2 cores two workers took 845 s where one took 1,214 s, every test passing. Not more: each boots n8n.
	maxWorkers: 2,
	// The longest files first (measured seconds in the sequencer), so that no worker idles for long at the end.
	testSequencer: '<rootDir>/test/e2e/sequencer.js',
	// A cold n8n install alone takes minutes; a test boots n8n several times.
	testTimeout: 600000,
};
