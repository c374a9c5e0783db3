/**
 * What `n8n execute --rawOutput` prints: log lines, the run's JSON indented by
 * two spaces, and sometimes a log line after it. The e2e tests read the JSON
 * alone (a line after it once failed a CI run).
 */
import { parseExecuteOutput } from '../../scripts/n8n-instance';

const run = { data: { resultData: { runData: { 'HTTP Request': [{ data: { main: [[]] } }] } } } };
const printed = JSON.stringify(run, null, 2);

test('reads the JSON between log lines before and after it', () => {
	const stdout = `Loading workflow\nExecution was started\n${printed}\n{"level":"info","message":"shutting down"}\nDone\n`;
	expect(parseExecuteOutput('w1', stdout)).toEqual(run);
});

test('reads the JSON printed last, with or without a final newline', () => {
	expect(parseExecuteOutput('w1', `log\n${printed}`)).toEqual(run);
	expect(parseExecuteOutput('w1', `log\n${printed}\n`)).toEqual(run);
});

test('no JSON, or JSON cut short, is an error naming the workflow', () => {
	expect(() => parseExecuteOutput('w1', 'only logs\n')).toThrow(/no JSON for workflow w1/);
	expect(() => parseExecuteOutput('w2', printed.slice(0, 40))).toThrow(
		/unreadable JSON for workflow w2/,
	);
});
