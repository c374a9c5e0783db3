/**
 * The order jest hands test files to its workers: the end-to-end files first,
 * the longest first (they mostly wait for n8n's polls, so the unit and heavy
 * files run beside them), then jest's own order for the rest.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

/**
 * How long each e2e file takes beside the others, longest first, so that six at a time end
 * together. The six first start together, so only the rest's order matters (a clean-clone run,
 * 349f5ef: examples 415 s, the misfires 400 and 371, moments 354, newcomer 324, durable 296; then
 * webhook 196, editor 190, triggers 110, hostile 89, package 86, credential 65, upsert 53, uploads
 * 43, actions 35). A file not listed comes after them.
 */
const E2E_FIRST = [
	'newcomer',
	'moments-misfires.durable',
	'moments-misfires.poller',
	'examples',
	'durable',
	'moments',
	'webhook',
	'editor',
	'triggers',
	'hostile',
	'package',
	'credential',
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
