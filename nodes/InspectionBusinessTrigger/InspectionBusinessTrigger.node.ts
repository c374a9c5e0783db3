import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeProperties,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { POLLING_TRIGGER_DESCRIPTION } from '../shared/descriptions';
import { eventsSubtitle } from '../shared/subtitle';
import { contentHashOf, isPollEvent, type PollEvent, watchedResources } from './core/events';
import { runPoll } from './core/poll';
import { pickSample } from './core/sample';
import { overlapGuard } from './overlap';
import { apiSource, newestRecords } from './source';

const MINUTE = 60_000;

/**
 * The most one poll spends, whatever n8n offers. The durable scheduler offers
 * less (36 s by default). Without it, and for the test poll n8n runs when a
 * workflow is published, n8n offers 5 minutes (and older versions nothing):
 * longer than a publication waits for its triggers (84 s) and than the
 * shortest poll interval (1 minute).
 */
const MAX_BUDGET_MS = 45_000;

/** The time this poll may spend. Older n8n versions have no poll budget; they abandon no poll either. */
function pollBudgetMs(context: IPollFunctions): number {
	return typeof context.getPollBudgetMs === 'function'
		? Math.min(context.getPollBudgetMs(), MAX_BUDGET_MS)
		: MAX_BUDGET_MS;
}

/** Which changes the trigger reports; its option names are also the canvas subtitle. */
const EVENTS_PROPERTY: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: [],
	description:
		'Changes to report. Each item carries event, events (all selected events of that change), the full record, previous (what the trigger last saw of it) and changes (the watched fields that changed, each with before and after).',
	options: [
		{
			name: 'Attachment Added',
			value: 'attachment.added',
			description: 'An additional report or document appeared on an inspection',
		},
		{ name: 'Contact Created', value: 'contact.created' },
		{
			name: 'Contact Tag Added',
			value: 'contact.tag_added',
			description: 'A contact got a tag (also a new contact created with tags)',
		},
		{
			name: 'Contact Tag Removed',
			value: 'contact.tag_removed',
			description: 'A tag was taken off a contact',
		},
		{
			name: 'Contact Updated',
			value: 'contact.updated',
			description: 'Any change to a contact the trigger has seen before, tag changes included',
		},
		{ name: 'Inspection Canceled', value: 'inspection.canceled' },
		{ name: 'Inspection Confirmed', value: 'inspection.confirmed' },
		{ name: 'Inspection Created', value: 'inspection.created' },
		{ name: 'Inspection Deleted', value: 'inspection.deleted' },
		{
			name: 'Inspection Event Created',
			value: 'inspection_event.created',
			description: 'A new appointment on an inspection, such as a drop-off or pick-up',
		},
		{
			name: 'Inspection Event Updated',
			value: 'inspection_event.updated',
			description: 'An appointment on an inspection changed (time, name, inspectors)',
		},
		{
			name: 'Inspection Report Published',
			value: 'inspection.published',
			description: "The inspection's report status became published",
		},
		{
			name: 'Inspection Rescheduled',
			value: 'inspection.rescheduled',
			description: 'The scheduled time changed',
		},
		{
			name: 'Inspection Updated',
			value: 'inspection.updated',
			description:
				'Any change to an inspection the trigger has seen before, confirmations and reschedules included',
		},
	],
};

export class InspectionBusinessTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inspection Business Trigger',
		name: 'inspectionBusinessTrigger',
		icon: {
			light: 'file:../../icons/inspection-business.svg',
			dark: 'file:../../icons/inspection-business.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle([EVENTS_PROPERTY]),
		description: POLLING_TRIGGER_DESCRIPTION,
		defaults: { name: 'Inspection Business Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inspectionBusinessApi', required: true }],
		properties: [
			EVENTS_PROPERTY,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Emit Existing Records on First Poll',
						name: 'emitExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll emits every record that already exists (event contact.existing, inspection.existing, inspection_event.existing or attachment.existing) instead of only taking a baseline',
					},
					{
						displayName: 'Overlap (Minutes)',
						name: 'overlapMinutes',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 1440 },
						default: 5,
						description:
							'How far before the last change seen each poll starts asking, so changes the API shows late are not missed. Repeats are recognised and not emitted again.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const chosen = this.getNodeParameter('events', []) as string[];
		const events: PollEvent[] = chosen.filter(isPollEvent);
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Select at least one event', {
				description: 'The trigger watches only the resources the selected events need.',
			});
		}
		const options = this.getNodeParameter('options', {}) as IDataObject;

		// Fetch Test Event: shows the newest matching record and leaves the state alone.
		if (this.getMode() === 'manual') {
			const newest = await newestRecords(apiSource(this), watchedResources(events));
			const sample = pickSample(newest, events);
			return sample ? [this.helpers.returnJsonArray([sample])] : null;
		}

		const staticData = this.getWorkflowStaticData('node');
		const budgetMs = pollBudgetMs(this);
		const pollOf = `${this.getWorkflow().id ?? ''}/${this.getNode().id}`;
		// A digest of the state this poll starts from, by the hash record versions use.
		const startState = contentHashOf(staticData);
		if (!overlapGuard.start(pollOf, startState, Date.now())) {
			this.logger.debug('Poll skipped: another poll of this trigger is running or committing');
			return null;
		}
		let changed = false;
		try {
			const result = await runPoll(staticData, apiSource(this, budgetMs), {
				events,
				overlapMs: Number(options.overlapMinutes ?? 5) * MINUTE,
				emitExisting: options.emitExisting === true,
				budgetMs,
				now: () => Date.now(),
			});
			// Written only here, once every page this poll asked for is in: a failed poll has thrown
			// above with the state untouched. n8n commits it together with this poll's emit (or,
			// when nothing is emitted, through its cursor commit), never on its own.
			for (const key of Object.keys(staticData)) delete staticData[key];
			Object.assign(staticData, result.state);
			changed = result.items.length > 0 || contentHashOf(staticData) !== startState;
			return result.items.length > 0 ? [this.helpers.returnJsonArray(result.items)] : null;
		} finally {
			overlapGuard.end(pollOf, startState, changed, Date.now());
		}
	}
}
