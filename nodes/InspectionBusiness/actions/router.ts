import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../helpers/operation';
import * as agency from './agency';
import * as attachment from './attachment';
import * as contact from './contact';
import * as contactStats from './contactStats';
import * as inspection from './inspection';
import * as inspectionEvent from './inspectionEvent';
import * as tag from './tag';

/** Every resource's operations by value; the field map reads it too. */
export const resources: Record<string, Record<string, Operation>> = {
	agency: agency.operations,
	attachment: attachment.operations,
	contact: contact.operations,
	contactStats: contactStats.operations,
	inspection: inspection.operations,
	inspectionEvent: inspectionEvent.operations,
	tag: tag.operations,
};

/** The operation the node is set to, by resource and operation; the node's execute runs it. */
export function router(this: IExecuteFunctions): Operation {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = Object.hasOwn(resources, resource) ? resources[resource][operation] : undefined;
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return handler;
}
