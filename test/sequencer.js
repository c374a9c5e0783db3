/**
 * The order jest hands test files to its workers: jest's own (the files that failed last time,
 * then the longest by its record of the last run, or the largest file where it has none), except
 * that a file whose header has a line `@long` comes first. Those e2e files wait for n8n's polls
 * for minutes, so `npm test` starts them before the short ones, whose record a clean clone lacks.
 * So do the unit files made of parts (test/helpers/parts.ts) that have no record: the longest of
 * their lane, though their own text is a few lines.
 */
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Whether the file's first comment marks it long. */
const isLong = ({ path }) =>
	/^\s*\*\s*@long\b/m.test(/^\/\*\*[\s\S]*?\*\//.exec(fs.readFileSync(path, 'utf8'))?.[0] ?? '');

/** Whether the file's tests are parts kept in other modules, and jest has no record of its length. */
const isUnmeasuredParts = ({ path, duration }) =>
	duration == null &&
	/^import \{ part \} from '\.\.\/helpers\/parts';$/m.test(fs.readFileSync(path, 'utf8'));

class LongFirstSequencer extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const long = new Set(sorted.filter((test) => isLong(test) || isUnmeasuredParts(test)));
		return [...long, ...sorted.filter((test) => !long.has(test))];
	}
}

module.exports = LongFirstSequencer;
