/**
 * Three projects. `unit`: everything that needs no n8n install and no browser
 * (`npm run test:unit`, three workers: its files wait on timers at times, so a
 * third overlaps them). `heavy`: slow, slow-changing checks kept out of the
 * fast lane (`npm run test:heavy`). `e2e`: the real-n8n project, when present.
 * `npm test` runs all three, side by side (scripts/test.ts).
 */
const fs = require('node:fs');
const path = require('node:path');

const transform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
};

/**
 * Heavy: seconds of CPU each and rarely touched by a change: the trigger
 * state-size, property and moments-model checks, the large seed, the minimum-n8n check (the
 * TypeScript compiler over the sources), and Prettier over every file (what
 * `npm run lint` also checks; kept because CI runs `npm test`, not lint).
 * Also the trigger's polls through n8n-core against a re-seeded sandbox (10 to
 * 25 s a file): the same trigger core runs in the fast lane against in-memory
 * lists (test/triggers/walks.test.ts and judging.test.ts).
 */
const HEAVY = [
	'test/triggers/state-size.test.ts',
	'test/triggers/poll.property.test.ts',
	'test/triggers/moments.model.test.ts',
	'test/triggers/moments.knockout.test.ts',
	'test/triggers/poll.sandbox.test.ts',
	'test/triggers/moments.sandbox.test.ts',
	'test/triggers/poll.staged.test.ts',
	'test/triggers/poll.unreadable.sandbox.test.ts',
	'test/triggers/poll.clocks.sandbox.test.ts',
	'test/sandbox/seed.large.test.ts',
	'test/compat/minimum-n8n.test.ts',
	'test/format.test.ts',
];

const unit = {
	displayName: 'unit',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', ...HEAVY.map((file) => `/${file}$`)],
	transform,
};

const heavy = {
	displayName: 'heavy',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: HEAVY.map((file) => `<rootDir>/${file}`),
	transform,
};

const e2eProject = path.join(__dirname, 'test/e2e/jest.project.js');
const projects = [unit, heavy];
if (fs.existsSync(e2eProject) && process.env.SKIP_E2E !== '1') projects.push(require(e2eProject));

/** @type {import('jest').Config} */
module.exports = {
	projects,
	testTimeout: 30000,
	testSequencer: '<rootDir>/test/sequencer.js',
};
