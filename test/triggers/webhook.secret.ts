/**
 * Where the webhook trigger's shared secret lives (webhookSecret): version 2 reads it from an Inspection
 * Business Webhook credential, so it is not in the workflow's JSON; version 1 workflows, which
 * hold it as a node parameter and store no `secretSource`, keep working unchanged, and either
 * version may choose the other source explicitly.
 */
import type { ICredentialTestFunctions, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessWebhookApi } from '../../credentials/InspectionBusinessWebhookApi.credentials';
import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { runWebhook } from '../helpers/n8n';

export function secretPlace(): void {
	const trigger = new InspectionBusinessWebhookTrigger();
	const IN_CREDENTIAL = 'secret kept in the credential';
	const IN_NODE = 'secret kept in the node';
	const body = {
		id: '7c1d9e2a-0000-4000-8000-000000000001',
		event: 'inspection.confirmed',
		data: { id: '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a' },
	};

	/** The HTTP status each secret gets: 200 with an execution, or the node's own 401. */
	async function statusBySecret(
		typeVersion: number,
		parameters: INodeParameters,
		webhookSecret?: string,
	) {
		const statuses: Record<string, number | string> = {};
		for (const given of [IN_CREDENTIAL, IN_NODE]) {
			const { result, response, error } = await runWebhook({
				node: trigger,
				typeVersion,
				parameters,
				webhookSecret,
				request: { headers: { 'X-Webhook-Secret': given }, body },
			});
			if (error) statuses[given] = `error: ${error.message}`;
			else if (response.ended) statuses[given] = response.statusCode;
			else statuses[given] = result?.workflowData?.[0].length === 1 ? 200 : 'no execution';
		}
		return statuses;
	}

	test('version 2 defaults to the credential: its secret is accepted, a secret left in the node is not', async () => {
		expect(await statusBySecret(2, { secret: IN_NODE }, IN_CREDENTIAL)).toEqual({
			[IN_CREDENTIAL]: 200,
			[IN_NODE]: 401,
		});
	});

	test('a version 1 workflow, with the secret as a parameter and no secret source, works as before without any webhook credential', async () => {
		expect(await statusBySecret(1, { secret: IN_NODE })).toEqual({
			[IN_CREDENTIAL]: 401,
			[IN_NODE]: 200,
		});
	});

	test('either version can choose the other source', async () => {
		expect(
			await statusBySecret(2, { secretSource: 'parameter', secret: IN_NODE }, IN_CREDENTIAL),
		).toEqual({ [IN_CREDENTIAL]: 401, [IN_NODE]: 200 });
		expect(
			await statusBySecret(1, { secretSource: 'credential', secret: IN_NODE }, IN_CREDENTIAL),
		).toEqual({ [IN_CREDENTIAL]: 200, [IN_NODE]: 401 });
	});

	test('the credential has only the secret, as a password field, and version 2 asks for it only with the credential source', () => {
		expect(
			new InspectionBusinessWebhookApi().properties.map(({ name, typeOptions }) => [
				name,
				typeOptions,
			]),
		).toEqual([['secret', { password: true }]]);
		const { description } = trigger;
		expect(description.version).toEqual([1, 2]);
		expect(description.credentials).toContainEqual({
			name: 'inspectionBusinessWebhookApi',
			required: true,
			displayOptions: { show: { secretSource: ['credential'] } },
			testedBy: 'webhookSecret',
		});
		const secret = description.properties.find((property) => property.name === 'secret');
		expect(secret?.displayOptions).toEqual({ show: { secretSource: ['parameter'] } });
	});

	test("the credential's test refuses an empty secret and one with spaces around it, which a header cannot carry", async () => {
		const check = async (secret: string) =>
			await trigger.methods.credentialTest.webhookSecret.call({} as ICredentialTestFunctions, {
				id: 'c',
				name: 'Webhook secret',
				type: 'inspectionBusinessWebhookApi',
				data: { secret },
			});
		expect((await check('')).status).toBe('Error');
		expect((await check('   ')).status).toBe('Error');
		expect(await check(' padded ')).toEqual({
			status: 'Error',
			message: 'The secret starts or ends with a space, which a header cannot carry: remove it',
		});
		expect((await check('a good secret')).status).toBe('OK');
	});
}
