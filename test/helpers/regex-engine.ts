/**
 * n8n-workflow runs the regular expressions of a node's parameters (a resource locator's
 * pattern, say) in a vm with a 250 ms wall-clock timeout. On a 2-core machine that runs the e2e
 * files beside the unit lanes, a jest worker can wait longer than that for the CPU, and n8n's
 * parameter check then fails a linear pattern on a 30-character id ("Regular expression execution
 * timed out"). The harness keeps the guard, with a timeout of 10 s: a pattern that runs away still
 * fails, a busy machine does not. Our own patterns' linear time is tested on their own
 * (test/node/hostile-text.test.ts).
 */
import vm from 'node:vm';

import type { RegexEngine } from 'n8n-workflow';

const TIMEOUT_MS = 10_000;

const context = vm.createContext({
	pattern: '',
	input: '',
	flags: '',
	replacement: '',
	result: null,
});
const scripts = {
	exec: new vm.Script('result = new RegExp(pattern, flags).exec(input)'),
	test: new vm.Script('result = new RegExp(pattern, flags).test(input)'),
	replace: new vm.Script('result = input.replace(new RegExp(pattern, flags), replacement)'),
	matchAll: new vm.Script('result = Array.from(input.matchAll(new RegExp(pattern, flags)))'),
	split: new vm.Script('result = input.split(new RegExp(pattern, flags))'),
};

function run<T>(
	kind: keyof typeof scripts,
	pattern: string,
	input: string,
	flags = '',
	replacement = '',
): T {
	Object.assign(context, { pattern, input, flags, replacement, result: null });
	scripts[kind].runInContext(context, { timeout: TIMEOUT_MS });
	return context.result as T;
}

export const patientRegexEngine: RegexEngine = {
	exec: (pattern, input, flags) => run('exec', pattern, input, flags),
	test: (pattern, input, flags) => run('test', pattern, input, flags),
	replace: (pattern, input, flags, replacement) =>
		run('replace', pattern, input, flags, replacement),
	matchAll: (pattern, input, flags) =>
		run('matchAll', pattern, input, flags?.includes('g') ? flags : `${flags ?? ''}g`),
	split: (pattern, input, flags) => run('split', pattern, input, flags),
};
