/**
 * What `n8n execute --rawOutput` prints: log lines, the run's JSON indented by
 * two spaces, and sometimes a log line after it. The e2e tests read the JSON
 * alone (a line after it once failed a CI run).
 */
import { crashedAfterPrinting, parseExecuteOutput } from '../../scripts/n8n-instance';
import { ExitError } from '../../scripts/processes';

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

test('a run printed whole before n8n crashed on its way out (SIGSEGV) stands; any other end fails', () => {
	const crash = (signal: NodeJS.Signals | null, stdout: string) =>
		crashedAfterPrinting('w1', new ExitError('exited', signal, stdout));
	const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
	try {
		expect(crash('SIGSEGV', `log\n${printed}\n`)).toEqual(run);
		expect(crash('SIGSEGV', `log\n${printed.slice(0, 40)}`)).toBeUndefined();
		expect(crash('SIGKILL', `log\n${printed}\n`)).toBeUndefined();
		expect(crash(null, `log\n${printed}\n`)).toBeUndefined();
		expect(crashedAfterPrinting('w1', new Error('timed out'))).toBeUndefined();
	} finally {
		stderr.mockRestore();
	}
});
