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
			'test/triggers/catalog.test.ts',
			'test/triggers/moments.model.test.ts',
			'test/triggers/unreadable.test.ts',
			'test/triggers/records.test.ts',
			'test/triggers/state.test.ts',
			'test/triggers/moments.test.ts',
			'test/triggers/moments.edges.test.ts',
			'test/triggers/moments.misfires.test.ts',
			'test/triggers/poll.baseline.test.ts',
			'test/triggers/poll.clocks.test.ts',
			'test/triggers/polls.test.ts',
			'test/triggers/poll.property.test.ts',
			'test/triggers/poll.regression.test.ts',
			'test/triggers/poll.unreadable.test.ts',
			'test/triggers/poll.walk.test.ts',
			'test/triggers/poll.walk.windows.test.ts',
			'test/triggers/testEvent.test.ts',
			'test/triggers/state-bounds.test.ts',
			'test/triggers/upgrade.test.ts',
		],
	},
	// The moments' rules alone, against the tests that state them: the model test and the catalog's table.
	moments: {
		mutate: [
			'nodes/InspectionBusinessTrigger/catalog/*.ts',
			'nodes/InspectionBusinessTrigger/judge/timeMoments.ts',
			'nodes/InspectionBusinessTrigger/judge/version.ts',
		],
		tests: ['test/triggers/moments.model.test.ts', 'test/triggers/catalog.test.ts'],
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
