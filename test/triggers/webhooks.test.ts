/**
 * The webhook trigger through n8n-core's WebhookContext: its checks and output, real deliveries
 * from the sandbox, delivery ids a sender chooses, repeats and re-fetches, and where its secret
 * lives. One file, so that n8n-core loads once; each part (./<part>.ts) keeps its own sandbox
 * and servers (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { webhookTrigger } from './webhook';
import { deliveries } from './webhook.delivery';
import { hostileDeliveryIds } from './webhook.hostile';
import { replays } from './webhook.replay';
import { secretPlace } from './webhook.secret';

part('webhook', webhookTrigger);
part('webhook.delivery', deliveries);
part('webhook.hostile', hostileDeliveryIds);
part('webhook.replay', replays);
part('webhook.secret', secretPlace);
