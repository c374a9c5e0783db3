/** The committed OpenAPI document matches the endpoint table exactly, is current, and its schemas compile. */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ASSUMPTIONS } from '../../nodes/shared/assumptions';
import { ENDPOINTS, type Endpoint, type EndpointKey } from '../../nodes/shared/endpoints';
import { OPENAPI_FILE, renderOpenApi } from '../../openapi/generate';
import type { Json } from './support';

export function openapi(): void {
	const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
	const endpoints = Object.entries(ENDPOINTS) as Array<[EndpointKey, Endpoint]>;
	const op = (e: Endpoint): Json => doc.paths[e.path]?.[e.method.toLowerCase()];
	const schemaOf = (refObject: Json): Json =>
		doc.components.schemas[String(refObject.$ref).replace('#/components/schemas/', '')];

	describe('the OpenAPI document', () => {
		it('is OpenAPI 3.1 with bearer security, and the committed file is what generate.ts writes', () => {
			expect(doc.openapi).toBe('3.1.0');
			expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
				type: 'http',
				scheme: 'bearer',
			});
			expect(doc.security).toEqual([{ bearerAuth: [] }]);
			expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApi());
		});

		it('has every endpoint of the table and nothing else', () => {
			const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(
				([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
			);
			expect(documented.sort()).toEqual(endpoints.map(([, e]) => `${e.method} ${e.path}`).sort());
			for (const [key, e] of endpoints) expect(op(e).operationId).toBe(key);
		});

		it.each(endpoints)(
			'%s: parameters match the table (names, bounds, enums), nothing extra',
			(_key, e) => {
				const params = op(e).parameters as Json[];
				expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual([...e.pathParams]);
				expect(params.filter((p) => p.in === 'path').every((p) => p.required === true)).toBe(true);
				const query = params.filter((p) => p.in === 'query');
				expect(query.map((p) => p.name)).toEqual(e.query.map((q) => q.name));
				for (const q of e.query) {
					const schema = query.find((p) => p.name === q.name)?.schema as Json;
					if (q.type === 'integer')
						expect(schema).toMatchObject({
							type: 'integer',
							minimum: q.min,
							maximum: q.max,
							default: q.default,
						});
					if (q.type === 'enum') expect(schema.enum).toEqual(q.values);
					if (q.type === 'sort')
						expect(schema.enum).toEqual(q.values?.flatMap((f) => [f, `-${f}`]));
					if (q.type === 'boolean') expect(schema.type).toBe('boolean');
					if (q.type === 'uuid') expect(schema.format).toBe('uuid');
					if (q.type === 'id-list') {
						expect(schema).toMatchObject({ type: 'array', maxItems: q.maxItems });
						expect(query.find((p) => p.name === q.name)).toMatchObject({
							style: 'form',
							explode: false,
						});
					}
					if (q.type === 'string-array')
						expect(query.find((p) => p.name === q.name)).toMatchObject({
							style: 'form',
							explode: true,
						});
					if (q.assumption)
						expect(query.find((p) => p.name === q.name)?.description).toContain(
							`(${q.assumption}:`,
						);
				}
			},
		);

		it.each(endpoints.filter(([, e]) => e.body))(
			'%s: request body fields match the table, nothing extra',
			(_key, e) => {
				const body = e.body as NonNullable<Endpoint['body']>;
				const content = op(e).requestBody.content as Json;
				const media = body.encoding === 'json' ? 'application/json' : 'multipart/form-data';
				expect(Object.keys(content)).toEqual([media]);
				const schema = schemaOf(content[media].schema);
				expect(schema.additionalProperties).toBe(false);
				expect(Object.keys(schema.properties)).toEqual(body.fields.map((f) => f.name));
				expect(schema.required ?? []).toEqual(
					body.fields.filter((f) => f.required).map((f) => f.name),
				);
				for (const f of body.fields) {
					const type = schema.properties[f.name].type;
					expect(Array.isArray(type) && type.includes('null')).toBe(f.nullable);
					if (f.type === 'email') expect(schema.properties[f.name].format).toBe('email');
					if (f.type === 'enum') expect(schema.properties[f.name].enum).toEqual(f.values);
				}
				for (const [a, b] of body.exclusive ?? [])
					expect(schema.allOf).toContainEqual({ not: { required: [a, b] } });
			},
		);

		it.each(endpoints)(
			'%s: the response status and schema are the table’s, with the error answers',
			(_key, e) => {
				const responses = op(e).responses as Json;
				expect(schemaOf(responses[e.response.status].content['application/json'].schema)).toBe(
					doc.components.schemas[e.response.schema],
				);
				const expected = [String(e.response.status), '401', '429'];
				if (e.query.length || e.body) expected.push('400');
				if (e.pathParams.length) expected.push('404');
				if (e.body?.encoding === 'multipart') expected.push('413');
				expect(Object.keys(responses).sort()).toEqual(expected.sort());
				expect(responses['429'].headers['Retry-After'].required).toBe(false);
				if (e.list)
					expect(
						schemaOf(
							schemaOf(responses[e.response.status].content['application/json'].schema).properties
								.data.items,
						),
					).toBe(doc.components.schemas[e.list.record]);
				expect(op(e)['x-assumptions']).toEqual([...e.assumptions]);
			},
		);

		it('names every assumption it rests on in the description, with its statement', () => {
			for (const [name, { statement }] of Object.entries(ASSUMPTIONS))
				expect(doc.info.description).toContain(`- ${name}: ${statement}`);
		});

		it('has schemas that compile as JSON Schema 2020-12', () => {
			const ajv = addFormats(new Ajv2020({ allErrors: true }));
			const schemas = JSON.parse(
				JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', ''),
			) as Record<string, Json>;
			for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, name);
			for (const name of Object.keys(schemas)) expect(() => ajv.getSchema(name)).not.toThrow();
			expect(Object.keys(schemas).sort()).toEqual(
				[
					...new Set(
						endpoints.flatMap(([, e]) =>
							[e.response.schema, e.body?.schema, e.list?.record].filter((s): s is string => !!s),
						),
					),
					'Error',
				].sort(),
			);
		});
	});
}
