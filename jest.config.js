/** Unit tests (sandbox, transport, node, triggers) and, when present, the real-n8n e2e project. */
const fs = require('node:fs');
const path = require('node:path');

const transform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }],
};

const unit = {
	displayName: 'unit',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform,
};

const e2eProject = path.join(__dirname, 'test/e2e/jest.project.js');
const projects = [unit];
if (fs.existsSync(e2eProject) && process.env.SKIP_E2E !== '1') projects.push(require(e2eProject));

/** @type {import('jest').Config} */
module.exports = { projects, testTimeout: 30000 };
