/**
 * The moments where earlier versions misfired (support/moments-misfires.ts),
 * in a real n8n under `n8n start` with n8n's poller (the durable scheduler off).
 */
import {
	changeMoments,
	type Misfires,
	startingAddedLater,
	startMisfires,
	timeMoments,
} from './support/moments-misfires';

const MINUTE = 60_000;
let run: Misfires;

beforeAll(async () => {
	run = await startMisfires('poller');
}, 10 * MINUTE);

afterAll(async () => await run?.n8n.dispose());

it(
	'a second payment, a new agreement, nothing to sign and a role given again: each moment as often as it should come',
	async () => {
		await changeMoments(run);
	},
	12 * MINUTE,
);

it(
	'Starting selected while an inspection is inside its lead time sends it no reminder; a later booking gets one',
	async () => {
		await startingAddedLater(run);
	},
	6 * MINUTE,
);

it(
	'time moments: Ended selected later, new lengths and moves back, statuses, a change listed late and a time without an offset',
	async () => {
		await timeMoments(run);
	},
	15 * MINUTE,
);
