/**
 * What the README and docs/ say that the code defines, checked against the
 * code itself: the operations of each resource, every "**Option** (default …)"
 * claim, which options sit under Options, the events of both triggers, the
 * watched fields, the webhook trigger's answers (by running it), the signature
 * forms it reads, the credential test's messages, and the generated field
 * tables of docs/operations.md.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { InspectionBusinessApi } from '../credentials/InspectionBusinessApi.credentials';
import { InspectionBusinessWebhookApi } from '../credentials/InspectionBusinessWebhookApi.credentials';
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { regenerated } from '../scripts/events-doc';
import { signatureMatches } from '../nodes/InspectionBusinessWebhookTrigger/auth';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { refusedUrlReason } from '../nodes/shared/transport/request';
import {
	END_MARKER,
	operationTables,
	START_MARKER,
	type OperationTable,
} from '../scripts/operations-doc';
import { runWebhook } from './helpers/n8n';

const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
/** The README with every run of whitespace one space, as Markdown renders it. */
const readmeText = readme.replace(/\s+/g, ' ');
const docs = readdirSync(join(root, 'docs'))
	.filter((file) => file.endsWith('.md') && file !== 'assumptions.md')
	.map((file) => ({ file: `docs/${file}`, text: read(`docs/${file}`) }));
/** The README and the reference pages this package's docs branch owns. */
const documents = [{ file: 'README.md', text: readme }, ...docs];

const actionNode = new InspectionBusiness().nodeVersions[2].description;
const pollingTrigger = new InspectionBusinessTrigger().description;
const webhookTrigger = new InspectionBusinessWebhookTrigger().description;
const credentials = [new InspectionBusinessApi(), new InspectionBusinessWebhookApi()];

/** Every property of the nodes and credentials, collections and their options opened. */
function allProperties(): INodeProperties[] {
	const flat: INodeProperties[] = [];
	const visit = (properties: INodeProperties[]) => {
		for (const property of properties) {
			flat.push(property);
			if (property.type === 'collection') visit((property.options ?? []) as INodeProperties[]);
		}
	};
	for (const properties of [
		actionNode.properties,
		pollingTrigger.properties,
		webhookTrigger.properties,
		...credentials.map((credential) => credential.properties),
	])
		visit(properties);
	return flat;
}

/** A default as the documents write it: on/off for switches, else the value. */
const shownDefault = (property: INodeProperties) =>
	property.type === 'boolean' ? (property.default ? 'on' : 'off') : String(property.default);

const optionsOf = (property: INodeProperties | undefined) =>
	(property?.options ?? []) as INodePropertyOptions[];

describe('operations per resource', () => {
	/** README rows "| **Resource** | **Operation**: … **Operation** … |". */
	const table = readme.slice(
		readme.indexOf('\n| Resource '),
		readme.indexOf('\n\n', readme.indexOf('\n| Resource ')),
	);
	const rows = [...table.matchAll(/^\| \*\*([^*]+)\*\* +\| (.+) \|$/gm)].map((match) => ({
		resource: match[1],
		operations: [...match[2].matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]).sort(),
	}));

	it("the README's operations table names exactly the node's operations, per resource", () => {
		const resource = actionNode.properties.find((property) => property.name === 'resource');
		const expected = optionsOf(resource).map((option) => ({
			resource: option.name,
			operations: optionsOf(
				actionNode.properties.find(
					(property) =>
						property.name === 'operation' &&
						property.displayOptions?.show?.resource?.[0] === option.value,
				),
			)
				.map((operation) => operation.name)
				.sort(),
		}));
		expect(rows).toEqual(expected);
	});
});

describe('options and defaults', () => {
	const properties = allProperties();

	/** "**Name** (default X)", "**Name** (on by default…)", "**Name** (off by default…)". */
	const claims = documents.flatMap(({ file, text }) =>
		[
			...text.matchAll(/\*\*([^*]+)\*\* \((?:default `?([^`)]+)`?|(on|off) by default[^)]*)\)/g),
		].map((match) => ({
			file,
			name: match[1].replace(/\s+/g, ' '),
			value: match[2] ?? match[3],
		})),
	);

	it('every "(default …)" claim names an option with that default', () => {
		expect(claims.length).toBeGreaterThanOrEqual(12);
		const wrong = claims.filter(
			({ name, value }) =>
				!properties.some(
					(property) => property.displayName === name && shownDefault(property) === value,
				),
		);
		expect(wrong).toEqual([]);
	});

	it('what the documents put under Options is in an Options collection', () => {
		const inOptions = new Set(
			properties
				.filter((property) => property.type === 'collection' && property.displayName === 'Options')
				.flatMap((property) => (property.options as INodeProperties[]).map((o) => o.displayName)),
		);
		const claimed = documents.flatMap(({ file, text }) =>
			[...text.matchAll(/\*\*Options → ([^*]+)\*\*/g)].map((match) => ({ file, name: match[1] })),
		);
		expect(claimed.length).toBeGreaterThan(0);
		expect(claimed.filter(({ name }) => !inOptions.has(name))).toEqual([]);
	});

	it('Skip Duplicates is a field of Upload itself: on for reports, off for documents', () => {
		const skip = actionNode.properties.filter((property) => property.name === 'skipDuplicates');
		const byKind = Object.fromEntries(
			skip.map((property) => [property.displayOptions?.show?.kind?.[0], property.default]),
		);
		expect(byKind).toEqual({ report: true, document: false });
		expect(readmeText).toContain('**Skip Duplicates** (on for reports, off for documents)');
		for (const { text } of documents) expect(text).not.toMatch(/Options → Skip Duplicates/);
	});
});

describe('trigger events', () => {
	it('the webhook trigger offers exactly the event names the documents give', () => {
		const offered = optionsOf(
			webhookTrigger.properties.find((property) => property.name === 'events'),
		).map((option) => option.value);
		const page = read('docs/webhook-trigger.md');
		const named = page.slice(page.indexOf('**The event names**'));
		const listed = [...named.slice(0, named.indexOf('\n\n')).matchAll(/`([a-z_]+\.[a-z_]+)`/g)];
		expect(listed.map((match) => match[1]).sort()).toEqual([...offered].sort());
	});

	it("the polling trigger's events and watched fields tables are what the code makes", () => {
		const page = read('docs/polling-trigger.md');
		expect(page).toBe(regenerated(page));
	});
});

describe("the webhook trigger's answers, as docs/webhook-trigger.md quotes them (the README links there)", () => {
	const SECRET = 'documented secret';
	const DELIVERY = '5d0c7e10-0000-4000-8000-00000000d0c5';
	const body = (event = 'inspection.confirmed') => ({
		id: DELIVERY,
		event,
		data: { id: '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a' },
	});
	const webhookPage = read('docs/webhook-trigger.md');

	async function answer(
		request: { headers?: Record<string, string>; body: unknown },
		parameters: INodeParameters = {},
		staticData: IDataObject = {},
	) {
		const outcome = await runWebhook({
			node: new InspectionBusinessWebhookTrigger(),
			parameters,
			webhookSecret: SECRET,
			staticData,
			workflowId: crypto.randomUUID(),
			request,
		});
		// n8n sends a returned webhookResponse as the 200 body; the node writes the others itself.
		const sent = outcome.response.ended ? outcome.response.body : outcome.result?.webhookResponse;
		return {
			status: outcome.response.ended ? outcome.response.statusCode : 200,
			json: JSON.stringify(sent),
		};
	}

	it('an accepted delivery: 200 {"received":true}', async () => {
		const accepted = await answer({ headers: { 'X-Webhook-Secret': SECRET }, body: body() });
		expect(accepted).toEqual({ status: 200, json: '{"received":true}' });
		for (const text of [webhookPage]) expect(text).toContain(`200 \`${accepted.json}\``);
	});

	it('a missing secret or a wrong signature: 401 with the reason', async () => {
		const noSecret = await answer({ body: body() });
		const badSignature = await answer(
			{ headers: { 'X-Webhook-Secret': SECRET, 'X-Signature': 'sha256=00' }, body: body() },
			{ verifySignature: true },
		);
		expect(noSecret.status).toBe(401);
		expect(badSignature.status).toBe(401);
		expect(webhookPage).toContain(`401 \`${noSecret.json}\``);
		expect(webhookPage).toContain(`401 \`${badSignature.json}\``);
	});

	it('an event not selected, and a repeated delivery: 200 with what was ignored', async () => {
		const unselected = await answer(
			{ headers: { 'X-Webhook-Secret': SECRET }, body: body('contact.changed') },
			{ events: ['inspection.confirmed'] },
		);
		const staticData: IDataObject = {};
		const request = { headers: { 'X-Webhook-Secret': SECRET }, body: body() };
		await answer(request, {}, staticData);
		const repeat = await answer(request, {}, staticData);
		const quoted = [
			unselected.json.replace('contact.changed', '<name>'),
			repeat.json.replace(DELIVERY, '<id>'),
		];
		expect([unselected.status, repeat.status]).toEqual([200, 200]);
		for (const text of [webhookPage])
			for (const json of quoted) expect(text).toContain(`200 \`${json}\``);
	});
});

describe('the signature forms the documents name: hex or base64, optionally sha256=', () => {
	const raw = Buffer.from('{"event":"inspection.confirmed"}');
	const mac = createHmac('sha256', 'k').update(raw).digest();

	it.each([
		['hex', mac.toString('hex')],
		['base64', mac.toString('base64')],
		['URL-safe base64', mac.toString('base64url')],
		['sha256=<hex>', `sha256=${mac.toString('hex')}`],
		['sha256=<base64>', `sha256=${mac.toString('base64')}`],
	])('%s is accepted', (_form, signature) => {
		expect(signatureMatches(signature, raw, 'k')).toBe(true);
		expect(signatureMatches(signature, raw, 'other key')).toBe(false);
	});

	it('the README and the webhook page say so', () => {
		expect(readme).toMatch(
			/as hex or base64\s+\(standard or URL-safe\), optionally prefixed `sha256=`/,
		);
		expect(read('docs/webhook-trigger.md')).toMatch(
			/as hex or base64\s+\(standard or URL-safe\), optionally prefixed `sha256=`/,
		);
	});
});

describe("the credential test's messages", () => {
	const firstSentence = (message: string) => message.slice(0, message.indexOf('.') + 1);
	const rules = (new InspectionBusinessApi().test.rules ?? []) as Array<{
		properties: { message: string };
	}>;

	it('the README quotes the first sentence of each, in bold as the editor shows it', () => {
		const messages = new Set([
			...rules.map((rule) => rule.properties.message),
			refusedUrlReason('http://api.example.com') ?? '',
		]);
		// 401, 404, an answer that is not the API's list, plain http.
		expect(messages.size).toBe(4);
		for (const message of messages) expect(readmeText).toContain(`**${firstSentence(message)}**`);
	});
});

describe('docs/operations.md', () => {
	/** The generated part, read back as tables: headings and trimmed cells. */
	function documented(): OperationTable[] {
		const text = read('docs/operations.md');
		const part = text.slice(text.indexOf(START_MARKER), text.indexOf(END_MARKER));
		const tables: OperationTable[] = [];
		for (const line of part.split('\n')) {
			const heading = /^#### (.+) → (.+)$/.exec(line);
			if (heading) tables.push({ resource: heading[1], operation: heading[2], rows: [] });
			const cells = /^\| (?!-)(.+) \|$/.exec(line);
			if (!cells || line.startsWith('| Field ')) continue;
			const [field, wireName, fallback, notes] = cells[1]
				.split(/ +\| +/)
				.map((cell) => cell.trim().replace(/\\\|/g, '|'));
			tables[tables.length - 1].rows.push({ field, wireName, default: fallback, notes });
		}
		return tables;
	}

	it("its field tables are what the node's description generates (npx tsx scripts/operations-doc.ts)", () => {
		const generated = operationTables().map((table) => ({
			...table,
			rows: table.rows.map((row) => ({ ...row, notes: row.notes.trim() })),
		}));
		expect(documented()).toEqual(generated);
	});

	it('covers every operation of every resource', () => {
		expect(documented()).toHaveLength(30);
	});
});
