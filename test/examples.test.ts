/**
 * The example workflows, read as files (the e2e suite imports and runs them in
 * a real n8n): each uses the nodes' current versions with parameters those
 * versions show, the triggers are among them, scheduled reads take only what
 * changed, and every credential and webhook they name is the one the demo and
 * the e2e setup create. No example writes to a record the user did not pick, and
 * none that a trigger starts (a business moment, a change) needs code: n8n's
 * no-code nodes shape what it sends.
 */
import type { INode, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { resources } from '../nodes/InspectionBusiness/actions/router';
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { ENDPOINTS } from '../nodes/shared/endpoints';
import {
	loadExamples,
	SANDBOX_CREDENTIAL,
	SANDBOX_WEBHOOK_CREDENTIAL,
	WEBHOOK_EXAMPLE,
} from '../scripts/workflows';

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

test('there are eight examples, each with one of the package nodes', () => {
	expect(examples.map((workflow) => workflow.id)).toEqual([
		'IbExampleAcctExp',
		'IbExampleCrmHook1',
		'IbExampleCrmSync',
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
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

test('four examples start with the polling trigger (three on business moments), one with the webhook trigger', () => {
	expect(starts('inspectionBusinessTrigger').map((workflow) => workflow.id)).toEqual([
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
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

test('no example a trigger starts has a Code node: Edit Fields, Filter and Date & Time shape it', () => {
	const triggered = [
		...starts('inspectionBusinessTrigger'),
		...starts('inspectionBusinessWebhookTrigger'),
	];
	expect(triggered).toHaveLength(5);
	const shaping = triggered.map((workflow) => ({
		workflow: workflow.id,
		code: workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.code').map((n) => n.name),
	}));
	expect(shaping).toEqual(triggered.map((workflow) => ({ workflow: workflow.id, code: [] })));
	const types = new Set(triggered.flatMap((workflow) => workflow.nodes.map((node) => node.type)));
	expect([...types].filter((type) => !type.startsWith(`${PACKAGE}.`)).sort()).toEqual([
		'n8n-nodes-base.dateTime',
		'n8n-nodes-base.filter',
		'n8n-nodes-base.noOp',
		'n8n-nodes-base.set',
		'n8n-nodes-base.stickyNote',
	]);
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
