/**
 * An upload's form fields, checked before anything is sent (upload.ts
 * validateUploadFields): the fields the API names for the endpoint and no
 * other (the file goes as the file part, never as text), empty ones left out,
 * an attachment's kind set from its rule and a kind that contradicts it
 * refused, a report's name, a document's file, internal_only only on a
 * document and only true or false. Each refusal names its field. The requests
 * these make: test/node/uploads.ts.
 */
import type { INode } from 'n8n-workflow';

import { type UploadRule, validateUploadFields } from '../../nodes/shared/transport/upload';

const node = { name: 'Inspection Business', type: 'test', typeVersion: 1 } as unknown as INode;
type Endpoint = 'uploadContactPhoto' | 'uploadAttachment';

describe('accepted: what goes on the wire', () => {
	it.each<[string, Endpoint, UploadRule, Record<string, string>, boolean, Record<string, string>]>([
		['a contact photo', 'uploadContactPhoto', 'photo', {}, true, {}],
		[
			'a document, kind set from the rule',
			'uploadAttachment',
			'document',
			{},
			true,
			{ kind: 'document' },
		],
		[
			'a report without a file (a link in its description)',
			'uploadAttachment',
			'report',
			{ name: 'Final', description: 'https://example.com/r' },
			false,
			{ name: 'Final', description: 'https://example.com/r', kind: 'report' },
		],
		[
			'a kind that matches the rule',
			'uploadAttachment',
			'document',
			{ kind: 'document' },
			true,
			{ kind: 'document' },
		],
		[
			'empty fields are left out',
			'uploadAttachment',
			'document',
			{ name: '', description: '' },
			true,
			{ kind: 'document' },
		],
		[
			'a field left undefined is left out (the type forbids it; the node never sends one)',
			'uploadAttachment',
			'document',
			{ name: undefined } as unknown as Record<string, string>,
			true,
			{ kind: 'document' },
		],
		[
			'internal_only on a document',
			'uploadAttachment',
			'document',
			{ internal_only: 'false' },
			true,
			{ internal_only: 'false', kind: 'document' },
		],
		[
			'internal_only true',
			'uploadAttachment',
			'document',
			{ internal_only: 'true' },
			true,
			{ internal_only: 'true', kind: 'document' },
		],
	])('%s', (_name, endpoint, rule, fields, hasFile, wire) => {
		expect(validateUploadFields(node, endpoint, rule, fields, hasFile)).toEqual(wire);
	});
});

describe('refused, naming the field', () => {
	it.each<[string, Endpoint, UploadRule, Record<string, string>, boolean, string]>([
		[
			'a field the endpoint does not have',
			'uploadAttachment',
			'document',
			{ colour: 'red' },
			true,
			'colour',
		],
		['the file as a text field', 'uploadAttachment', 'document', { file: 'x' }, true, 'file'],
		[
			'the file as a text field of a photo',
			'uploadContactPhoto',
			'photo',
			{ file: 'x' },
			true,
			'file',
		],
		['a photo uploaded under another rule', 'uploadContactPhoto', 'document', {}, true, 'rule'],
		['an attachment uploaded as a photo', 'uploadAttachment', 'photo', {}, true, 'rule'],
		[
			'a kind that contradicts the rule',
			'uploadAttachment',
			'document',
			{ kind: 'report' },
			true,
			'kind',
		],
		['a report without a name', 'uploadAttachment', 'report', {}, true, 'name'],
		[
			'a report named only with spaces',
			'uploadAttachment',
			'report',
			{ name: '   ' },
			true,
			'name',
		],
		['a document without a file', 'uploadAttachment', 'document', {}, false, 'file'],
		['a photo without a file', 'uploadContactPhoto', 'photo', {}, false, 'file'],
		[
			'internal_only on a report',
			'uploadAttachment',
			'report',
			{ name: 'R', internal_only: 'true' },
			true,
			'internal_only',
		],
		[
			'internal_only that is not true or false',
			'uploadAttachment',
			'document',
			{ internal_only: 'yes' },
			true,
			'internal_only',
		],
	])('%s', (_name, endpoint, rule, fields, hasFile, field) => {
		expect(() => validateUploadFields(node, endpoint, rule, fields, hasFile)).toThrow(`"${field}"`);
	});
});
