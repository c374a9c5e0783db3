/**
 * The commands of `npm run sandbox -- <command>` against a running sandbox, and the usage
 * that lists them (sandbox/cli.ts runs them).
 */
import { reportLines } from './change-report';
import { Sandbox } from './change-target';
import { changeNamed, CHANGES, TRIGGER_EVENT_LABELS, type Change } from './changes';
import { SandboxControl } from './client';

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

export const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--rate-limit 120] [--latency-ms 0]
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

export interface Flags {
	url?: string;
	secret?: string;
	header?: string;
	id?: string;
}

/** One command against a running sandbox; prints what happened (to the console by default). */
export async function command(
	name: string,
	args: string[],
	flags: Flags,
	print: (text: string) => void = console.log,
): Promise<void> {
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
		print(`Acme's webhooks now also go to ${url} (receiver ${receiver.id}).`);
		return;
	}
	if (name === 'deliveries') {
		const { data } = await control.deliveries();
		for (const attempt of data.slice(-10)) {
			const answer = attempt.status === null ? attempt.error : `HTTP ${attempt.status}`;
			print(
				`${attempt.time} ${attempt.event} (delivery ${attempt.delivery_id}, attempt ${attempt.attempt}): ${answer}`,
			);
		}
		if (data.length === 0) print('No webhook deliveries yet.');
		return;
	}
	if (name === 'reset') {
		await control.reset();
		print('The sandbox starts again from its seed (registered webhooks are forgotten).');
		return;
	}
	const change = changeNamed(name);
	const result = await change.run(new Sandbox(baseUrl), { id: flags.id, args });
	print(reportLines(change, result).join('\n'));
}
