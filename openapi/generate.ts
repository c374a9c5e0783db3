/**
 * Builds the OpenAPI 3.1 description of API v1 from the endpoint table
 * (nodes/shared/endpoints.ts) and the record schemas (schemas.ts). Run
 * `npx tsx openapi/generate.ts` to rewrite openapi/inspection-business-v1.json;
 * test/sandbox/openapi.ts fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSUMPTIONS, type AssumptionName } from '../nodes/shared/assumptions';
import {
	ENDPOINTS,
	LIMITS,
	type BodyField,
	type Endpoint,
	type EndpointKey,
	type QueryParam,
} from '../nodes/shared/endpoints';
import { listSchema, RECORD_SCHEMAS, type Schema } from './schemas';

export const OPENAPI_FILE = join(__dirname, 'inspection-business-v1.json');

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** An assumption as its name and its plain-words statement. */
const assumed = (name: AssumptionName) => `${name}: ${ASSUMPTIONS[name].statement}`;
const noted = (text: string, assumption?: AssumptionName) =>
	assumption ? `${text} (${assumed(assumption)})` : text;

function paramSchema(p: QueryParam): Schema {
	switch (p.type) {
		case 'integer':
			return { type: 'integer', minimum: p.min, maximum: p.max, default: p.default };
		case 'boolean':
			return { type: 'boolean' };
		case 'enum':
			return { type: 'string', enum: p.values };
		case 'sort':
			return { type: 'string', enum: (p.values ?? []).flatMap((f) => [f, `-${f}`]) };
		case 'uuid':
			return { type: 'string', format: 'uuid' };
		case 'id-list':
			return { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: p.maxItems };
		case 'string-array':
			return { type: 'array', items: { type: 'string', minLength: 1 } };
		case 'timestamp':
			return { type: 'string', description: 'ISO 8601 date or date-time' };
		case 'string':
		case 'cursor':
			return { type: 'string', minLength: 1 };
	}
}

function queryParameter(p: QueryParam): Schema {
	const serialization =
		p.type === 'id-list'
			? { style: 'form', explode: false }
			: p.type === 'string-array'
				? { style: 'form', explode: true }
				: {};
	return {
		name: p.name,
		in: 'query',
		required: false,
		description: noted(p.description, p.assumption),
		schema: paramSchema(p),
		...serialization,
	};
}

function fieldSchema(f: BodyField): Schema {
	const base: Schema = (() => {
		switch (f.type) {
			case 'string':
				return f.nullable ? { type: 'string' } : { type: 'string', minLength: 1 };
			case 'email':
				return { type: 'string', format: 'email' };
			case 'email-list':
				return {
					type: 'string',
					description: `Comma-separated email addresses, up to ${f.maxItems}`,
				};
			case 'country':
				return { type: 'string', pattern: '^[A-Z]{2}$' };
			case 'date':
				return { type: 'string', format: 'date' };
			case 'uuid':
				return { type: 'string', format: 'uuid' };
			case 'uuid-array':
				return { type: 'array', items: { type: 'string', format: 'uuid' } };
			case 'string-array':
				return { type: 'array', items: { type: 'string', minLength: 1 } };
			case 'string-map':
				return { type: 'object', additionalProperties: { type: 'string' } };
			case 'boolean':
				return { type: 'boolean' };
			case 'enum':
				return { type: 'string', enum: f.values };
			case 'file':
				return { type: 'string', contentMediaType: 'application/octet-stream' };
		}
	})();
	const type = base.type as string;
	return {
		...base,
		...(f.nullable ? { type: [type, 'null'] } : {}),
		...(f.description ? { description: f.description } : {}),
	};
}

/** ContactCreate, ContactUpdate, AttachmentUpload, ContactPhotoUpload: straight from the table's body fields. */
function bodySchema(body: NonNullable<Endpoint['body']>): Schema {
	const properties = Object.fromEntries(body.fields.map((f) => [f.name, fieldSchema(f)]));
	if (body.encoding === 'multipart') {
		for (const f of body.fields)
			if (f.type === 'boolean')
				properties[f.name] = {
					type: 'string',
					enum: ['true', 'false'],
					description: f.description,
				};
	}
	const required = body.fields.filter((f) => f.required).map((f) => f.name);
	const exclusive = (body.exclusive ?? []).map(([a, b]) => ({ not: { required: [a, b] } }));
	return {
		type: 'object',
		properties,
		...(required.length ? { required } : {}),
		additionalProperties: false,
		...(exclusive.length ? { allOf: exclusive } : {}),
	};
}

const errorResponse = (description: string, headers?: Schema) => ({
	description,
	...(headers ? { headers } : {}),
	content: { 'application/json': { schema: ref('Error') } },
});

function operation(key: EndpointKey, e: Endpoint): Schema {
	const responses: Record<string, Schema> = {
		[e.response.status]: {
			description: noted(e.summary),
			content: { 'application/json': { schema: ref(e.response.schema) } },
		},
		'401': errorResponse('Missing, invalid or inactive API key'),
		'429': errorResponse(noted('Rate limit exceeded', 'retryAfterOptional'), {
			'Retry-After': {
				description: 'Seconds to wait; may be absent (retryAfterOptional)',
				required: false,
				schema: { type: 'integer', minimum: 0 },
			},
		}),
	};
	if (e.query.length || e.body)
		responses['400'] = errorResponse('An invalid parameter or field, named in error.param');
	if (e.pathParams.length)
		responses['404'] = errorResponse(
			noted('No such record in this organization', 'unknownIdAnswers404'),
		);
	if (e.body?.encoding === 'multipart')
		responses['413'] = errorResponse('The file is over its size limit');
	const pathParameters = e.pathParams.map((name) => ({
		name,
		in: 'path',
		required: true,
		schema: { type: 'string', format: 'uuid' },
	}));
	const notes = e.assumptions.map(assumed);
	return {
		operationId: key,
		summary: e.summary,
		...(notes.length
			? { description: `Assumptions:\n${notes.map((n) => `- ${n}`).join('\n')}` }
			: {}),
		tags: [e.path.split('/')[2]],
		parameters: [...pathParameters, ...e.query.map(queryParameter)],
		...(e.body
			? {
					requestBody: {
						required: true,
						content: {
							[e.body.encoding === 'json' ? 'application/json' : 'multipart/form-data']: {
								schema: ref(e.body.schema),
							},
						},
					},
				}
			: {}),
		responses,
		'x-assumptions': e.assumptions,
	};
}

function buildOpenApi(): Schema {
	const endpoints = Object.entries(ENDPOINTS) as Array<[EndpointKey, Endpoint]>;
	const paths: Record<string, Record<string, Schema>> = {};
	const schemas: Record<string, Schema> = { ...RECORD_SCHEMAS };
	for (const [key, e] of endpoints) {
		(paths[e.path] ??= {})[e.method.toLowerCase()] = operation(key, e);
		if (e.body) schemas[e.body.schema] = bodySchema(e.body);
		if (e.list) schemas[e.response.schema] = listSchema(e.list.record);
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Inspection Business API',
			version: '1.0.0',
			description: [
				'JSON-over-HTTPS access to one organization’s contacts, inspections, agencies, tags, events and attachments.',
				`Pages: limit 1–${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeDefault}); a page may be short while next_cursor is not null.`,
				`Rate limit: ${LIMITS.ratePerMinute} requests a minute per key owner.`,
				'Where the specification says “not shown”, this description follows the assumptions:',
				...(Object.keys(ASSUMPTIONS) as AssumptionName[]).map((name) => `- ${assumed(name)}`),
			].join('\n'),
		},
		servers: [
			{
				url: 'http://127.0.0.1:4010',
				description: `The sandbox (${assumed('baseUrlFromCredential')})`,
			},
		],
		security: [{ bearerAuth: [] }],
		paths,
		components: {
			securitySchemes: {
				bearerAuth: {
					type: 'http',
					scheme: 'bearer',
					description: 'Authorization: Bearer <API_KEY>',
				},
			},
			schemas,
		},
	};
}

export const renderOpenApi = (): string => `${JSON.stringify(buildOpenApi(), null, '\t')}\n`;

if (require.main === module) {
	writeFileSync(OPENAPI_FILE, renderOpenApi());
	console.log(`Wrote ${OPENAPI_FILE}`);
}
