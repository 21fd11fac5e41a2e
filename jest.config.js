/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/dev', '<rootDir>/nodes', '<rootDir>/credentials'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 60000,
	// Every core (jest's default leaves one idle: on CI's 2 cores that is one worker, 400 s instead of about 300).
	maxWorkers: '100%',
	setupFiles: ['<rootDir>/test/setup/jestSetup.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/jestTeardown.ts'],
};
