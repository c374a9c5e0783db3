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

async function main(): Promise<void> {
	const { values, positionals } = parseArgs({
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
		console.log(USAGE);
		return;
	}
	if (positionals.length > 0) {
		// A command that cannot be done says why, without the usage around it.
		await command(positionals[0], positionals.slice(1), values).catch((error: unknown) => {
			console.error(error instanceof Error ? error.message : error);
			process.exit(1);
		});
		return;
	}
	const sandbox = await startSandbox({
		port: numberFlag(values.port, 'port') ?? 4010,
		host: values.host,
		rateLimit: numberFlag(values['rate-limit'], 'rate-limit'),
		latencyMs: numberFlag(values['latency-ms'], 'latency-ms'),
		faults: values.faults,
		seed: values.seed,
	});
	console.log(`Inspection Business sandbox at ${sandbox.baseUrl} (seed ${values.seed ?? 'demo'})`);
	console.log(`Control API: ${sandbox.baseUrl}/_sandbox/ (loopback only)`);
	for (const [key, info] of Object.entries(KEY_TABLE))
		console.log(`  ${key.padEnd(26)} ${info.description}`);
	const stop = () => void sandbox.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	console.error(USAGE);
	process.exit(1);
});
