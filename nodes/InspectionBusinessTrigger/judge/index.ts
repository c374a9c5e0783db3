/**
 * The judge room's door: what a listed version means (judgeVersion, or
 * judgeUnreadable for one it cannot read), the time moments that came due
 * (reportTimeMoments), and the items a poll emits (itemsOf). Nothing outside
 * judge/ imports the files behind it.
 */
export { WATCHED_FIELDS } from './changes';
export { itemsOf, type TriggerItem, type UnreadableItem, type Verdict } from './items';
export {
	dueMoments,
	reportTimeMoments,
	STARTING_GRACE_MS,
	type TimeMomentRun,
	type TimeSettings,
} from './timeMoments';
export { readProblem } from './unreadable';
export { type JudgeContext, judgeUnreadable, judgeVersion, type Listing } from './version';
