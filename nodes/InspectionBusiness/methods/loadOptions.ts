import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { readAll } from '../../shared/transport/pages';

async function allTags(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const tags = await readAll.call(ctx, 'listTags');
	return tags.sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

const countOf = (tag: IDataObject) => `${String(tag.contact_count ?? 0)} contacts`;

/** Tags by name: `tags` on a contact and the `tag` filter take names. */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await allTags(this)).map((tag) => ({
		name: String(tag.name),
		value: String(tag.name),
		description: countOf(tag),
	}));
}

/** Tags by ID, for the `tag_id` filter. */
export async function getTagIds(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await allTags(this)).map((tag) => ({
		name: String(tag.name),
		value: String(tag.id),
		description: countOf(tag),
	}));
}
