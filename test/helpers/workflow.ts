/**
 * A workflow of the package's nodes as n8n-workflow builds it, without n8n-core: for
 * what n8n computes from a workflow alone (expressions, subtitles), and for the harness.
 */
import type { IDataObject, INode, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

/** Node types known to one workflow, looked up the way n8n does (name, then version). */
export class NodeTypeRegistry implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	add(name: string, type: INodeType | IVersionedNodeType): this {
		this.types.set(name, type);
		return this;
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const type = this.types.get(name);
		if (type === undefined) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const type = this.getByName(name);
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

export function buildWorkflow(
	nodes: INode[],
	connections: Workflow['connectionsBySourceNode'],
	nodeTypes: INodeTypes,
	staticData?: IDataObject,
	timezone?: string,
	id = 'harness-workflow',
): Workflow {
	return new Workflow({
		id,
		name: 'Harness workflow',
		nodes,
		connections,
		nodeTypes,
		active: false,
		staticData,
		settings: { executionOrder: 'v1', ...(timezone ? { timezone } : {}) },
	});
}
