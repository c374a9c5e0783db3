/**
 * What the mutation bench mutates, and the unit tests that run against each
 * target: those that exercise its code in-process (no n8n install, no browser,
 * no re-seeded sandbox per test), and none that reads the source text (StrykerJS rewrites it).
 */
const TARGETS = {
	'trigger-core': {
		// The pure core: the catalog, the judge, the memory and the walks (no n8n context).
		mutate: [
			'nodes/InspectionBusinessTrigger/catalog/*.ts',
			'nodes/InspectionBusinessTrigger/testEvent.ts',
			'nodes/InspectionBusinessTrigger/options.ts',
			'nodes/InspectionBusinessTrigger/judge/**/*.ts',
			'nodes/InspectionBusinessTrigger/memory/**/*.ts',
			'nodes/InspectionBusinessTrigger/poll/**/*.ts',
		],
		// state-size.test.ts is left out: a size benchmark of minutes, not a behaviour test.
		tests: [
			'test/triggers/judging.test.ts',
			'test/triggers/moments.model.test.ts',
			'test/triggers/memory.test.ts',
			'test/triggers/walks.test.ts',
			'test/triggers/polls.test.ts',
			'test/triggers/poll.property.test.ts',
		],
	},
	// The moments' rules alone, against the tests that state them: the model test and the catalog's table (with the rest of the judgement's tests).
	moments: {
		mutate: [
			'nodes/InspectionBusinessTrigger/catalog/*.ts',
			'nodes/InspectionBusinessTrigger/judge/timeMoments.ts',
			'nodes/InspectionBusinessTrigger/judge/version.ts',
		],
		tests: ['test/triggers/moments.model.test.ts', 'test/triggers/judging.test.ts'],
	},
	transport: {
		mutate: ['nodes/shared/transport/**/*.ts'],
		tests: [
			'test/transport/*.test.ts',
			// The node's files that reach it: Get and Get Many, uploads and downloads, Skip Duplicates
			// and the Errors table (each with the other parts of its file).
			'test/node/reading.test.ts',
			'test/node/files.test.ts',
			'test/node/writing.test.ts',
		],
	},
};

module.exports = { TARGETS };
