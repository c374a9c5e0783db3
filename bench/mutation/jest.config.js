/**
 * The unit tests the mutation bench runs against one target (MUTATION_TARGET):
 * the tests that exercise it in-process, without n8n installs, browsers or
 * re-seeded sandboxes.
 */
const path = require('node:path');
const { TARGETS } = require('./targets');

const target = TARGETS[process.env.MUTATION_TARGET ?? ''];
if (!target) throw new Error(`MUTATION_TARGET must be one of ${Object.keys(TARGETS).join(', ')}`);

/** @type {import('jest').Config} */
module.exports = {
	rootDir: path.resolve(__dirname, '../..'),
	testEnvironment: 'node',
	testMatch: target.tests.map((file) => `<rootDir>/${file}`),
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 60_000,
};
