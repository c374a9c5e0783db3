/**
 * The e2e project: real n8n (installed into the user's cache by the global
 * setup), this package packed and installed as a community package, the
 * sandbox, and a headless chromium. Files run side by side, each with an n8n
 * and a sandbox of its own (support/instance.ts).
 */
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
	displayName: 'e2e',
	rootDir: path.resolve(__dirname, '../..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
	setupFilesAfterEnv: ['<rootDir>/test/e2e/support/setup.ts'],
	slowTestThreshold: 120,
};
