/**
 * What a queue-mode workflow can put right after the webhook trigger so that a repeated delivery
 * that reached another webhook process does not go further (docs/webhook-trigger.md, "Queue mode").
 * Each guard lets an item through to the node named NEXT_STEP only the first time its key is seen;
 * the key is the trigger's `deliveryId`, or the execution's own id when the payload has none (so a
 * delivery without an id always passes instead of being taken for the first one without an id).
 *
 * - `removeDuplicates`: n8n's Remove Duplicates node, "Remove Items Processed in Previous
 *   Executions", kept in n8n's database (the same table for every process of the instance).
 * - `redis`: n8n's Redis node, Increment with a 24-hour expiry, then a Filter on "the count is 1".
 *   Redis increments atomically, and every queue-mode n8n already has one.
 */
import type { N8nCredential } from '../scripts/n8n-instance';

export const GUARDS = ['none', 'removeDuplicates', 'redis'] as const;
export type Guard = (typeof GUARDS)[number];

/** The node after the guard: an item that reaches it is one the workflow goes on with. */
export const NEXT_STEP = 'Next Step';

/** The key a guard checks, as the user writes it in the node's field. */
export const GUARD_KEY = '{{ $json.deliveryId ?? $execution.id }}';

export const GUARD_TITLES: Record<Exclude<Guard, 'none'>, string> = {
	removeDuplicates: 'then Remove Duplicates',
	redis: 'then Redis Increment + Filter',
};

export const redisCredential = (port: number): N8nCredential => ({
	id: 'IbQueueRedis0001',
	name: 'Redis (queue bench)',
	type: 'redis',
	data: { host: '127.0.0.1', port, database: 0, password: '', ssl: false },
});

type Node = Record<string, unknown> & { name: string; type: string };

const main = (...targets: string[]) => ({
	main: [targets.map((node) => ({ node, type: 'main', index: 0 }))],
});

function removeDuplicatesNodes(): Node[] {
	return [
		{
			id: '5e1f0b7a-0000-4000-8000-00000000d0d1',
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				dedupeValue: `=${GUARD_KEY}`,
				options: {},
			},
		},
	];
}

function redisNodes(credential: N8nCredential): Node[] {
	return [
		{
			id: '5e1f0b7a-0000-4000-8000-00000000d0d2',
			name: 'Count Delivery',
			type: 'n8n-nodes-base.redis',
			typeVersion: 1,
			position: [220, 0],
			parameters: {
				operation: 'incr',
				key: `=ib-delivery:${GUARD_KEY}`,
				expire: true,
				ttl: 86400,
			},
			credentials: { redis: { id: credential.id, name: credential.name } },
		},
		{
			id: '5e1f0b7a-0000-4000-8000-00000000d0d3',
			name: 'First Time',
			type: 'n8n-nodes-base.filter',
			typeVersion: 2.2,
			position: [440, 0],
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
					combinator: 'and',
					conditions: [
						{
							id: 'first-time',
							leftValue: '={{ Object.values($json)[0] }}',
							rightValue: 1,
							operator: { type: 'number', operation: 'equals' },
						},
					],
				},
				options: {},
			},
		},
	];
}

/**
 * The nodes after the trigger, and the connections from the trigger to NEXT_STEP. Every node has
 * an id: Remove Duplicates keeps its history per node id.
 */
export function guardNodes(
	guard: Guard,
	trigger: string,
	redis: N8nCredential,
): { nodes: Node[]; connections: Record<string, unknown> } {
	const guardChain =
		guard === 'removeDuplicates'
			? removeDuplicatesNodes()
			: guard === 'redis'
				? redisNodes(redis)
				: [];
	const nextStep: Node = {
		id: '5e1f0b7a-0000-4000-8000-00000000d0d4',
		name: NEXT_STEP,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220 * (guardChain.length + 1), 0],
		parameters: {},
	};
	const chain = [trigger, ...guardChain.map((node) => node.name), NEXT_STEP];
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < chain.length; i++) connections[chain[i]] = main(chain[i + 1]);
	return { nodes: [...guardChain, nextStep], connections };
}
