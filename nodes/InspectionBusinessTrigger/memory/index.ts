/**
 * The memory room's door: what the rest of the trigger may use of the state
 * (its read and write, what it holds of a record, what it lets go). Nothing
 * outside memory/ imports the files behind it.
 */
export {
	freshState,
	generationOf,
	holdsNoState,
	keepWithinBudget,
	type Keeping,
	letGo,
	readState,
	REMEMBER_MS,
	type Resource,
	type ResourceState,
	RESOURCES,
	STATE_BUDGET,
	type TriggerState,
	type UnfinishedWalk,
	type WatchPhase,
	writeState,
} from './state';
export {
	type AnyMemory,
	type AppointmentMemory,
	type ContactMemory,
	hashText,
	type Held,
	type HeldList,
	type HeldResource,
	type InspectionFact,
	type InspectionMemory,
	MAX_KEPT_LIST,
	MAX_KEPT_TEXT,
	type MemoryOf,
	type Named,
	ONCE_MOMENTS,
	type OnceMoment,
	type RecordBook,
	type Service,
	serviceId,
	unpackId,
} from './records';
export { changeTime, contentHashOf, endOf, memoryOf, recordKey } from './remember';
