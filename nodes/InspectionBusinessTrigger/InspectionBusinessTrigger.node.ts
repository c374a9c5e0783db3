import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { POLLING_TRIGGER_DESCRIPTION } from '../shared/descriptions';
import { eventsSubtitle } from '../shared/subtitle';
import { isPollEvent, type PollEvent, watchedResources } from './catalog';
import { EVENTS_PROPERTY, TRIGGER_PROPERTIES } from './description';
import { readProblem } from './judge';
import { generationOf, holdsNoState } from './memory';
import {
	type ChosenOptions,
	OPTION_DEFAULTS,
	type OptionName,
	readOptions,
	savedIn,
} from './options';
import { apiSource, newestRecords, runPoll } from './poll';
import { baselineStarts, overlapGuard } from './pollGuards';
import { pickSample } from './testEvent';

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

/** The node's settings, complete: saved where its version keeps them, else their defaults. */
function chosenOptions(context: IPollFunctions): ChosenOptions {
	const version = context.getNode().typeVersion;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return readOptions(version, (name: OptionName) =>
		savedIn(version, name) === 'options'
			? options[name]
			: context.getNodeParameter(name, OPTION_DEFAULTS[name] as never),
	);
}

export class InspectionBusinessTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inspection Business Trigger',
		name: 'inspectionBusinessTrigger',
		icon: {
			light: 'file:../../icons/inspection-business.svg',
			dark: 'file:../../icons/inspection-business.dark.svg',
		},
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle([EVENTS_PROPERTY]),
		description: POLLING_TRIGGER_DESCRIPTION,
		defaults: { name: 'Inspection Business Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inspectionBusinessApi', required: true }],
		properties: TRIGGER_PROPERTIES,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const chosen = this.getNodeParameter('events', []) as string[];
		const events: PollEvent[] = chosen.filter(isPollEvent);
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Select at least one event', {
				description: 'The trigger watches only the resources the selected events need.',
			});
		}
		const options = chosenOptions(this);

		// Fetch Test Event: shows the newest matching record and leaves the state alone.
		if (this.getMode() === 'manual') {
			const newest = await newestRecords(apiSource(this), watchedResources(events));
			// A record the trigger cannot read is no example of an event.
			const readable = newest.map(({ resource, records }) => ({
				resource,
				records: records.filter((record) => readProblem(resource, record) === null),
			}));
			const samples = pickSample(readable, events, Date.now(), {
				statuses: options.momentStatuses,
				oneItemPerMoment: options.oneItemPerMoment,
			});
			return samples.length > 0 ? [this.helpers.returnJsonArray(samples)] : null;
		}

		const staticData = this.getWorkflowStaticData('node');
		const budgetMs = pollBudgetMs(this);
		const pollOf = `${this.getWorkflow().id ?? ''}/${this.getNode().id}`;
		// A digest of the state this poll starts from, by the hash record versions use.
		// Which state this poll starts from: its generation, counted by every poll that changed it.
		const startState = String(generationOf(staticData));
		if (!overlapGuard.start(pollOf, startState, Date.now())) {
			this.logger.debug('Poll skipped: another poll of this trigger is running or committing');
			return null;
		}
		let changed = false;
		try {
			const fromNoState = holdsNoState(staticData);
			const result = await runPoll(staticData, apiSource(this, budgetMs), {
				...options,
				events,
				budgetMs,
				now: () => Date.now(),
				baselineBegan: fromNoState ? baselineStarts.startOf(pollOf, Date.now()) : undefined,
				log: (message) => this.logger.info(message),
			});
			baselineStarts.ended(pollOf, fromNoState, result.baselineBegan, Date.now());
			// Written only here, once every page this poll asked for is in: a failed poll has thrown
			// above with the state untouched. n8n commits it together with this poll's emit (or,
			// when nothing is emitted, through its cursor commit), never on its own.
			changed = result.changed;
			if (changed) {
				for (const key of Object.keys(staticData)) delete staticData[key];
				Object.assign(staticData, result.state);
			}
			return result.items.length > 0 ? [this.helpers.returnJsonArray(result.items)] : null;
		} finally {
			overlapGuard.end(pollOf, startState, changed, Date.now());
		}
	}
}
