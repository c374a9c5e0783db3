/**
 * `npm run sandbox`: the sandbox in the foreground with the flags given, or one command
 * (sandbox/commands.ts) against a running one.
 */
import { parseArgs } from 'node:util';
import { command, USAGE } from './commands';
import { KEY_TABLE } from './keys';
import { startSandbox } from './index';

const numberFlag = (value: string | undefined, name: string): number | undefined => {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
	return n;
};

/**
 * Runs `npm run sandbox` with `args`: the exit code, or undefined while the sandbox runs in the
 * foreground (until SIGINT or SIGTERM).
 */
export async function runCli(
	args: string[],
	print: (text: string) => void = console.log,
	printError: (text: string) => void = console.error,
): Promise<number | undefined> {
	const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
	try {
		const { values, positionals } = parseArgs({
			args,
			allowPositionals: true,
			options: {
				port: { type: 'string' },
				host: { type: 'string' },
				'rate-limit': { type: 'string' },
				'latency-ms': { type: 'string' },
				faults: { type: 'string' },
				seed: { type: 'string' },
				url: { type: 'string' },
				secret: { type: 'string' },
				header: { type: 'string' },
				id: { type: 'string' },
				help: { type: 'boolean' },
			},
		});
		if (values.help) {
			print(USAGE);
			return 0;
		}
		if (positionals.length > 0) {
			// A command that cannot be done says why, without the usage around it.
			return await command(positionals[0], positionals.slice(1), values, print).then(
				() => 0,
				(error: unknown) => {
					printError(message(error));
					return 1;
				},
			);
		}
		const sandbox = await startSandbox({
			port: numberFlag(values.port, 'port') ?? 4010,
			host: values.host,
			rateLimit: numberFlag(values['rate-limit'], 'rate-limit'),
			latencyMs: numberFlag(values['latency-ms'], 'latency-ms'),
			faults: values.faults,
			seed: values.seed,
		});
		print(`Inspection Business sandbox at ${sandbox.baseUrl} (seed ${values.seed ?? 'demo'})`);
		print(`Control API: ${sandbox.baseUrl}/_sandbox/ (loopback only)`);
		for (const [key, info] of Object.entries(KEY_TABLE))
			print(`  ${key.padEnd(26)} ${info.description}`);
		const stop = () => void sandbox.stop().then(() => process.exit(0));
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
		return undefined;
	} catch (error) {
		printError(message(error));
		printError(USAGE);
		return 1;
	}
}

if (require.main === module)
	void runCli(process.argv.slice(2)).then((code) => {
		if (code !== undefined) process.exit(code);
	});
