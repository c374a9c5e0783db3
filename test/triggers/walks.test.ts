/**
 * The polling trigger's walk over in-memory lists: baselines, clocks that jump, regressions,
 * unreadable records, the walk and its windows. One file, so that n8n-workflow and the trigger's
 * modules load once (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { baselines } from './poll.baseline';
import { clocks } from './poll.clocks';
import { regressions } from './poll.regression';
import { unreadablePolls } from './poll.unreadable';
import { walk } from './poll.walk';
import { walkWindows } from './poll.walk.windows';

part('poll.baseline', baselines);
part('poll.clocks', clocks);
part('poll.regression', regressions);
part('poll.unreadable', unreadablePolls);
part('poll.walk', walk);
part('poll.walk.windows', walkWindows);
