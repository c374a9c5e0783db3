/**
 * The order jest hands test files to its workers: the end-to-end files first,
 * the longest first (they mostly wait for n8n's polls, so the unit and heavy
 * files run beside them), then jest's own order for the rest.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

/**
 * How long each e2e file takes beside the others, longest first, so that four at a time end
 * together (a clean-clone run, 20c21cd: durable 706 s, newcomer 631, the misfires 414 and 445,
 * moments 413, examples 408, editor 196, webhook 173, triggers 94, the rest under a minute).
 * A file not listed comes after them.
 */
const E2E_FIRST = [
	'durable',
	'newcomer',
	'moments-misfires.durable',
	'moments-misfires.poller',
	'moments',
	'examples',
	'editor',
	'webhook',
	'triggers',
	'hostile',
	'credential',
	'package',
	'upsert',
	'uploads',
	'actions',
];

/** An e2e file's place in E2E_FIRST (after them when not listed); Infinity for other files. */
const e2eRank = (file) => {
	const name = path.basename(file);
	if (!name.endsWith('.e2e.test.ts')) return Infinity;
	const index = E2E_FIRST.indexOf(name.replace('.e2e.test.ts', ''));
	return index < 0 ? E2E_FIRST.length : index;
};
const rank = (test) => e2eRank(test.path);

class E2eFirstSequencer extends Sequencer {
	sort(tests) {
		const rest = super.sort(tests.filter((test) => rank(test) === Infinity));
		const e2e = tests.filter((test) => rank(test) !== Infinity);
		return [...e2e.sort((a, b) => rank(a) - rank(b)), ...rest];
	}
}

module.exports = E2eFirstSequencer;
// The e2e files' queue (test/e2e/support/setup.ts) serves them in the same order.
module.exports.e2eRank = e2eRank;
