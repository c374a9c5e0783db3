import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../../shared/endpoints';
import { binaryInputField, bodyField, bodyProperty, pathIdField } from '../../../../shared/fields';
import { uploadFile } from '../../../../shared/transport';
import { readBinaryFile } from '../../helpers/binary';
import { forEachItem } from '../../helpers/execution';
import { locatorParameter } from '../../helpers/locators';

export const endpoint = 'uploadAttachment' satisfies EndpointKey;

const field = (name: string) => bodyProperty(bodyField(endpoint, name));
const onlyFor = (kind: string, property: INodeProperties): INodeProperties => ({
	...property,
	displayOptions: { show: { kind: [kind] } },
});

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['upload'] } },
	[
		pathIdField(
			'inspection_id',
			'The inspection to attach to; a report needs a confirmed inspection',
		),
		{ ...field('kind'), required: true },
		field('name'),
		onlyFor('report', field('description')),
		onlyFor('document', field('internal_only')),
		{
			displayName: 'Send File',
			name: 'sendFile',
			type: 'boolean',
			default: true,
			description:
				'Whether to upload a file with the report; without one, the report is only its name and description (e.g. a link)',
			displayOptions: { show: { kind: ['report'] } },
		},
		{ ...binaryInputField, displayOptions: { hide: { sendFile: [false] } } },
	],
);

/**
 * Multipart upload (A20). `uploadFile` checks the fields (a report's name) and
 * the file (FILE_RULES of the kind) before anything is sent; the
 * confirmed-inspection rule for reports is the server's, whose 400 is shown.
 * Each report upload emails the client, so the transport never repeats one.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (itemIndex) => {
		const inspectionId = locatorParameter(this, 'inspection_id', itemIndex);
		const kind = this.getNodeParameter('kind', itemIndex) as 'report' | 'document';
		const name = (this.getNodeParameter('name', itemIndex, '') as string).trim();
		const fields: Record<string, string> = { kind };
		if (name) fields.name = name;
		if (kind === 'report') {
			const text = this.getNodeParameter('description', itemIndex, '') as string;
			if (text) fields.description = text;
		} else {
			fields.internal_only = String(
				this.getNodeParameter('internal_only', itemIndex, false) as boolean,
			);
		}
		const sendFile =
			kind === 'document' || (this.getNodeParameter('sendFile', itemIndex, true) as boolean);
		const file = sendFile ? await readBinaryFile(this, itemIndex) : undefined;
		const attachment = await uploadFile.call(this, endpoint, {
			pathParams: { inspection_id: inspectionId },
			fields,
			file,
			rule: kind,
		});
		return [{ json: attachment, pairedItem: { item: itemIndex } }];
	});
}
