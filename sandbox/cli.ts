import { parseArgs } from 'node:util';
import { reportLines } from './change-report';
import { Sandbox } from './change-target';
import { changeNamed, CHANGES, TRIGGER_EVENT_LABELS, type Change } from './changes';
import { SandboxControl } from './client';
import { KEY_TABLE } from './keys';
import { startSandbox } from './index';

/** The trigger events of a change, for the help: those it always makes, then those it may make. */
function eventsHelp(change: Change): string {
	const label = (expected: Change['events'][number]) =>
		TRIGGER_EVENT_LABELS[typeof expected === 'string' ? expected : expected[0]];
	const always = change.events.filter((e) => typeof e === 'string').map(label);
	const maybe = change.events.filter((e) => typeof e !== 'string').map(label);
	const webhook = change.webhook ? `; webhook ${change.webhook}` : '';
	return `${[...always, ...(maybe.length ? [`maybe ${maybe.join(', ')}`] : [])].join(', ')}${webhook}`;
}

const CHANGE_LINES = Object.entries(CHANGES)
	.map(([name, change]) =>
		[
			`  ${`${name} ${change.takes ?? ''}`.padEnd(38)} ${change.help}`,
			`  ${''.padEnd(38)} → ${eventsHelp(change)}`,
		].join('\n'),
	)
	.join('\n');

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--rate-limit 120] [--latency-ms 0]
       [--faults 500=0.05,reset=0.02,slow=0.1,slow-ms=2000] [--seed demo|small|large]
   Runs the sandbox in the foreground.

Usage: npm run sandbox -- <command> [--url http://127.0.0.1:4010]
   Acts on a running sandbox (the demo's, by default), as the business tools would, for Acme,
   on the record named with --id or else the one changed last that fits, and prints the record
   and the Inspection Business Trigger events to expect (→; "maybe": the command says when):
${CHANGE_LINES}
  webhook <url>                          sends Acme's webhooks to <url> too, e.g. a workflow's
                                         Production URL; --secret <secret> and --header <name>
                                         (default X-Webhook-Secret) send the secret
  deliveries                             lists the last webhook deliveries and how they were answered
  reset                                  starts the sandbox's data again from its seed (not its clock)`;

const numberFlag = (value: string | undefined, name: string): number | undefined => {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
	return n;
};

interface Flags {
	url?: string;
	secret?: string;
	header?: string;
	id?: string;
}

/** One command against a running sandbox; prints what happened. */
async function command(name: string, args: string[], flags: Flags): Promise<void> {
	let baseUrl = flags.url ?? 'http://127.0.0.1:4010';
	while (baseUrl.endsWith('/')) baseUrl = baseUrl.slice(0, -1); // a loop: no pattern to backtrack
	const control = new SandboxControl(baseUrl);
	if (name === 'webhook') {
		const url = args[0];
		if (!url) throw new Error('webhook needs the URL to send to');
		const receiver = await control.addWebhook({
			org: 'acme',
			url,
			...(flags.secret
				? { secret: flags.secret, secret_header: flags.header ?? 'X-Webhook-Secret' }
				: {}),
		});
		console.log(`Acme's webhooks now also go to ${url} (receiver ${receiver.id}).`);
		return;
	}
	if (name === 'deliveries') {
		const { data } = await control.deliveries();
		for (const attempt of data.slice(-10)) {
			const answer = attempt.status === null ? attempt.error : `HTTP ${attempt.status}`;
			console.log(
				`${attempt.time} ${attempt.event} (delivery ${attempt.delivery_id}, attempt ${attempt.attempt}): ${answer}`,
			);
		}
		if (data.length === 0) console.log('No webhook deliveries yet.');
		return;
	}
	if (name === 'reset') {
		await control.reset();
		console.log('The sandbox starts again from its seed (registered webhooks are forgotten).');
		return;
	}
	const change = changeNamed(name);
	const result = await change.run(new Sandbox(baseUrl), { id: flags.id, args });
	console.log(reportLines(change, result).join('\n'));
}

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
