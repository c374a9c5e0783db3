/**
 * What n8n's nodes panel and canvas show of the package's nodes. n8n 2.x's
 * editor folds a trigger into the entry of the node whose type name is the
 * trigger's without "Trigger" (inspectionBusinessTrigger into
 * inspectionBusiness) and shows the trigger's description there, above
 * "Triggers" and "Actions": that text starts with the action node's. The
 * canvas subtitles name events as the Events list does.
 */
import type { INode, INodeType, INodeTypeDescription, IVersionedNodeType } from 'n8n-workflow';

import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { NodeTypeRegistry, buildWorkflow } from './helpers/workflow';

/** The description n8n loads for a node type (a versioned node's default version). */
function loaded(node: INodeType | IVersionedNodeType): INodeTypeDescription {
	if ('nodeVersions' in node) {
		const version = node.description.defaultVersion ?? node.currentVersion;
		return node.nodeVersions[version].description;
	}
	return node.description;
}

const action = loaded(new InspectionBusiness());
const polling = loaded(new InspectionBusinessTrigger());
const webhook = loaded(new InspectionBusinessWebhookTrigger());
const nodes = [action, polling, webhook];

/** The node whose entry n8n's panel folds a trigger into, if any: same name without "Trigger". */
const foldedInto = (trigger: INodeTypeDescription) =>
	nodes.find((node) => node !== trigger && node.name === trigger.name.replace('Trigger', ''));

describe('nodes panel', () => {
	it('folds the polling trigger into the action node, and not the webhook trigger', () => {
		expect(foldedInto(polling)).toBe(action);
		expect(foldedInto(webhook)).toBeUndefined();
	});

	it("the folded entry's text (the polling trigger's) is the action node's, then the trigger's own", () => {
		expect(polling.description.startsWith(action.description)).toBe(true);
		expect(polling.description.length).toBeGreaterThan(action.description.length);
	});
});

describe('canvas subtitles', () => {
	/** The subtitle n8n's canvas shows for a trigger with these events selected. */
	const subtitle = (trigger: INodeType, events: string[]) => {
		const node: INode = {
			id: 'n',
			name: 'Trigger',
			type: 'trigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: { events },
		};
		const workflow = buildWorkflow([node], {}, new NodeTypeRegistry().add('trigger', trigger));
		return workflow.expression.getSimpleParameterValue(
			node,
			String(trigger.description.subtitle),
			'internal',
			{},
		);
	};

	it('the polling trigger names the selected events as the Events list does', () => {
		expect(
			subtitle(new InspectionBusinessTrigger(), ['inspection.confirmed', 'contact.tag_added']),
		).toBe('Inspection Confirmed, Contact Tag Added');
	});

	it('the webhook trigger too; an entry without a name as is; none selected is all events', () => {
		expect(
			subtitle(new InspectionBusinessWebhookTrigger(), ['inspection.published', 'invoice.paid']),
		).toBe('Inspection Report Published, invoice.paid');
		expect(subtitle(new InspectionBusinessWebhookTrigger(), [])).toBe('All events');
	});
});

describe('trigger picker', () => {
	// n8n's picker lists each event as its `action`, else "On" and its name lowercased.
	const picked = (description: INodeTypeDescription) => {
		const events = description.properties.find((property) => property.name === 'events');
		return (events?.options ?? []).map((option) =>
			'action' in option && option.action ? option.action : `On ${option.name.toLowerCase()}`,
		);
	};

	it('reads each polling event as a sentence: no event repeats its own noun or drops a comma', () => {
		for (const line of picked(polling)) {
			expect(line).not.toMatch(/\b(\w+) \1\b|inspection inspector|and signed and|took a/i);
			expect(line).toMatch(/^On [a-z]/);
		}
		expect(picked(polling)).toContain('On inspection paid, signed and published');
	});
});

describe('webhook trigger panel', () => {
	// n8n's editor shows the credential selectors after the last field that a credential's
	// display depends on; the README's first webhook step is the credential.
	it('shows the credential selectors before any setting but notices and what they depend on', () => {
		const dependsOn = new Set(
			(webhook.credentials ?? []).flatMap((credential) =>
				Object.keys(credential.displayOptions?.show ?? {}),
			),
		);
		const names = webhook.properties.map((property) => property.name);
		const selectorsAfter = Math.max(...names.map((name, i) => (dependsOn.has(name) ? i : -1)));
		const before = webhook.properties
			.slice(0, selectorsAfter + 1)
			.filter((property) => property.type !== 'notice' && !dependsOn.has(property.name))
			.map((property) => property.name);
		// The legacy Secret field (version 1) sits with its Secret Source.
		expect(before).toEqual(['secret']);
		expect(names.indexOf('events')).toBeGreaterThan(selectorsAfter);
	});
});
