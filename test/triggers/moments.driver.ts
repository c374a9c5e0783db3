/**
 * The polling trigger as n8n runs it, for the moments' model test: one poll through the real
 * `runPoll` (the only place the test reaches it), its state stored between polls as n8n stores a
 * workflow's static data (a JSON round trip).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type ListSource,
	type PollOptions,
	runPoll,
} from '../../nodes/InspectionBusinessTrigger/poll';
import type { Settings } from './moments.model';

export class TriggerDriver {
	private state: IDataObject = {};

	constructor(
		private readonly source: ListSource,
		private readonly clock: () => number,
	) {}

	/** One poll with these settings; returns its items. */
	async poll(settings: Settings): Promise<IDataObject[]> {
		const options: PollOptions = {
			events: settings.events as PollOptions['events'],
			overlapMs: settings.overlapMs,
			emitExisting: settings.emitExisting,
			budgetMs: 60_000,
			now: this.clock,
			startingHours: settings.startingHours,
			endedHours: settings.endedHours,
			momentStatuses: settings.momentStatuses,
			onlyOnce: settings.onlyOnce,
			endedLateHours: settings.endedLateHours,
			oneItemPerMoment: true,
			...(settings.recordCap === undefined ? {} : { recordCap: settings.recordCap }),
		};
		const result = await runPoll(this.state, this.source, options);
		this.state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
		if (process.env.DEBUG_MODEL)
			console.log(
				new Date(this.clock()).toISOString(),
				JSON.stringify((this.state.inspections as IDataObject)?.records),
				JSON.stringify(result.items.map((i) => [i.event, (i.record as IDataObject).id])),
			);
		return result.items as unknown as IDataObject[];
	}
}
