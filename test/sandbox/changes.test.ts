/**
 * `npm run sandbox -- <change>` (sandbox/changes.ts): each change does in the
 * sandbox what its help says, to a record it found itself, and the ones that
 * the account sends webhooks for reach a registered receiver with the event
 * and the record. The CLI command itself runs once, against a running sandbox.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { CHANGES, makeChange } from '../../sandbox/changes';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox({}, { reset: true });

type Json = Record<string, unknown>;
const v1 = async (path: string): Promise<Json & { data: Json[] }> =>
	(await (
		await fetch(`${sandbox.baseUrl}/v1/${path}`, {
			headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}` },
		})
	).json()) as Json & { data: Json[] };
const inspection = async (id: string) => (await v1(`inspections?ids=${id}`)).data[0];

it.each([
	[
		'confirm',
		async (id: string) => expect(await inspection(id)).toMatchObject({ status: 'confirmed' }),
	],
	[
		'cancel',
		async (id: string) => expect(await inspection(id)).toMatchObject({ status: 'canceled' }),
	],
	[
		'publish',
		async (id: string) =>
			expect(await inspection(id)).toMatchObject({ reports: { status: 'published' } }),
	],
	['new-inspection', async (id: string) => expect(await inspection(id)).toMatchObject({ id })],
	[
		'appointment',
		async (id: string) =>
			expect((await v1(`events?ids=${id}`)).data[0]).toMatchObject({ id, name: 'Key pick-up' }),
	],
	[
		'contact',
		async (id: string) =>
			expect((await v1(`contacts?ids=${id}`)).data[0].phone).toMatch(/^555-01\d\d$/),
	],
	[
		'new-contact',
		async (id: string) => expect((await v1(`contacts?ids=${id}`)).data).toHaveLength(1),
	],
	[
		'attachment',
		async (id: string) =>
			expect((await v1('attachments?kind=document')).data.map((a) => a.id)).toContain(id),
	],
])('%s does what its help says', async (name, check) => {
	const { id, said } = await makeChange(sandbox.baseUrl, name);
	expect(said).toContain(id);
	await check(id);
});

it('reschedule moves a confirmed inspection one day later', async () => {
	const { id, said } = await makeChange(sandbox.baseUrl, 'reschedule');
	const to = / to (\S+)$/.exec(said)?.[1];
	const after = await inspection(id);
	expect(after).toMatchObject({ status: 'confirmed', scheduled_for: to });
});

it('every change has a help line naming the trigger event it makes', () => {
	for (const change of Object.values(CHANGES))
		expect(change.help).toMatch(/\((Inspection|Contact|Attachment) [A-Z][a-z]+( [A-Z][a-z]+)?;/);
});

it('the changes that send webhooks reach a registered receiver, with the event and the record', async () => {
	await sandbox.control.addWebhook({ org: 'acme', url: 'http://127.0.0.1:9/unreachable' });
	const sent: Record<string, string> = {
		confirm: 'inspection.confirmed',
		reschedule: 'inspection.rescheduled',
		cancel: 'inspection.canceled',
		publish: 'inspection.published',
		contact: 'contact.changed',
		'new-contact': 'contact.changed',
	};
	for (const [name, event] of Object.entries(sent)) {
		const { id } = await makeChange(sandbox.baseUrl, name);
		const { data } = await sandbox.control.deliveries();
		expect(data.map((attempt) => `${attempt.event} ${attempt.record_id}`)).toContain(
			`${event} ${id}`,
		);
	}
});

it('npm run sandbox -- confirm --url <sandbox> prints what it changed', async () => {
	const root = join(__dirname, '..', '..');
	const child = spawn(
		join(root, 'node_modules', '.bin', 'tsx'),
		['sandbox/cli.ts', 'confirm', '--url', sandbox.baseUrl],
		{ cwd: root },
	);
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	expect(code).toBe(0);
	const id = /Confirmed inspection ([0-9a-f-]{36})/.exec(out)?.[1];
	expect(id).toBeDefined();
	expect(await inspection(id!)).toMatchObject({ status: 'confirmed' });
});
