/**
 * The polling trigger's memory: its state, the bounds on it, and the upgrade of an older state.
 * One file, so that n8n-workflow and the trigger's modules load once (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { state } from './state';
import { stateBounds } from './state-bounds';
import { upgrade } from './upgrade';

part('state', state);
part('state-bounds', stateBounds);
part('upgrade', upgrade);
