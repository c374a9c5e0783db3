/**
 * The order jest hands test files to its workers: jest's own (the files that failed last time,
 * then the longest by its record of the last run, or the largest file where it has none), except
 * that a file whose header has a line `@long` comes first. Those e2e files wait for n8n's polls
 * for minutes, so `npm test` starts them before the short ones, whose record a clean clone lacks.
 * So do the unit files made of parts (test/helpers/parts.ts): the longest of their lane, though
 * their own text is a few lines.
 */
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Whether the file's first comment marks it long, or it is made of parts. */
const isLong = ({ path }) => {
	const text = fs.readFileSync(path, 'utf8');
	return (
		/^\s*\*\s*@long\b/m.test(/^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '') ||
		/^import \{ part \} from '\.\.\/helpers\/parts';$/m.test(text)
	);
};

class LongFirstSequencer extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const long = new Set(sorted.filter(isLong));
		return [...long, ...sorted.filter((test) => !long.has(test))];
	}
}

module.exports = LongFirstSequencer;
