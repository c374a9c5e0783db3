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
import { readProblem } from './core/unreadable';
import { holdsNoState } from './core/state';
import { baselineStarts } from './baseline-start';
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
			name: 'Contact Took a New Role',
			value: 'contact.new_role',
			description:
				'A contact got a role it never had, such as a client now a buyer agent (a new agent for your CRM); new_roles names it',
		},
		{
			name: 'Contact Updated',
			value: 'contact.updated',
			description: 'Any change to a contact the trigger has seen before, tag changes included',
		},
		{
			name: 'Inspection Agreements Signed',
			value: 'inspection.agreements_signed',
			description: 'Every agreement on the inspection is signed (not just one of several)',
		},
		{ name: 'Inspection Canceled', value: 'inspection.canceled' },
		{ name: 'Inspection Confirmed', value: 'inspection.confirmed' },
		{ name: 'Inspection Created', value: 'inspection.created' },
		{ name: 'Inspection Deleted', value: 'inspection.deleted' },
		{
			name: 'Inspection Ended',
			value: 'inspection.ended',
			description:
				'A set number of hours after the inspection ended (Hours After Inspection Ended), e.g. to ask for a review',
		},
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
			name: 'Inspection Fees Changed',
			value: 'inspection.fees_changed',
			description:
				'Services or add-ons were added or removed, or the quote changed (see changes.services and changes["price.quote"])',
		},
		{
			name: 'Inspection Inspector Assigned',
			value: 'inspection.inspector_assigned',
			description: 'One item per inspector put on the inspection; inspector names them',
		},
		{
			name: 'Inspection Inspector Removed',
			value: 'inspection.inspector_removed',
			description: 'One item per inspector taken off the inspection; inspector names them',
		},
		{
			name: 'Inspection Paid',
			value: 'inspection.paid',
			description: 'The inspection became fully paid (a partial payment is not paid)',
		},
		{
			name: 'Inspection Paid and Signed',
			value: 'inspection.paid_and_signed',
			description:
				'The moment the inspection is both fully paid and has every agreement signed, whichever came last',
		},
		{
			name: 'Inspection Paid and Signed and Published',
			value: 'inspection.paid_signed_published',
			description:
				'The moment the inspection is fully paid, every agreement is signed and the report is published, whichever came last',
		},
		{
			name: 'Inspection Report Published',
			value: 'inspection.published',
			description: 'The reports status became published',
		},
		{
			name: 'Inspection Rescheduled',
			value: 'inspection.rescheduled',
			description: 'The scheduled time changed',
		},
		{
			name: 'Inspection Starting',
			value: 'inspection.starting',
			description:
				'A set number of hours before the scheduled time (Hours Before Inspection), e.g. for a reminder',
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
						displayName: 'Hours After Inspection Ended',
						name: 'endedHours',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 2160 },
						default: 24,
						description:
							'For Inspection Ended: how many hours after the inspection ended (ends_at, else scheduled time plus duration) it is reported',
					},
					{
						displayName: 'Hours Before Inspection',
						name: 'startingHours',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 2160 },
						default: 24,
						description:
							'For Inspection Starting: how many hours before the scheduled time it is reported',
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
			// A record the trigger cannot read is no example of an event.
			const readable = newest.map(({ resource, records }) => ({
				resource,
				records: records.filter((record) => readProblem(resource, record) === null),
			}));
			const sample = pickSample(readable, events, Date.now());
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
			const fromNoState = holdsNoState(staticData);
			const result = await runPoll(staticData, apiSource(this, budgetMs), {
				events,
				overlapMs: Number(options.overlapMinutes ?? 5) * MINUTE,
				emitExisting: options.emitExisting === true,
				budgetMs,
				now: () => Date.now(),
				baselineBegan: fromNoState ? baselineStarts.startOf(pollOf, Date.now()) : undefined,
				startingHours: Number(options.startingHours ?? 24),
				endedHours: Number(options.endedHours ?? 24),
			});
			baselineStarts.ended(pollOf, fromNoState, result.baselineBegan, Date.now());
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
