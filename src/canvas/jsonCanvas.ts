/**
 * Reads a JSON Canvas 1.0 file (https://jsoncanvas.org/spec/1.0/, Obsidian's `.canvas`): nodes of
 * four types with their positions and sizes, and the edges between them. Pure. A file that does not
 * follow the format is refused with what is wrong and where, never half read.
 */
import { CANVAS_JSON_PIECE_CHARS, CANVAS_MAX_NESTING, NOTE_TEXT_PIECE_CHARS } from "../config/limits";
import { parseJsonSteps } from "./jsonSteps";
import { fail, ok, type Result } from "../result";
import { runSteps, type Steps } from "../markdown/steps";
import { echoed } from "../markdown/echo";

type CanvasNodeType = "text" | "file" | "link" | "group";

export interface CanvasNode {
	id: string;
	type: CanvasNodeType;
	x: number;
	y: number;
	width: number;
	height: number;
	color?: string;
	/** text nodes: Markdown. */
	text?: string;
	/** file nodes: the vault path shown, and an optional `#heading` or `#^block` within it. */
	file?: string;
	subpath?: string;
	/** link nodes. */
	url?: string;
	/** group nodes. */
	label?: string;
	background?: string;
	backgroundStyle?: string;
}

export interface CanvasEdge {
	id: string;
	fromNode: string;
	toNode: string;
	fromSide?: string;
	toSide?: string;
	fromEnd?: string;
	toEnd?: string;
	color?: string;
	label?: string;
}

export interface Canvas {
	nodes: CanvasNode[];
	edges: CanvasEdge[];
}

const NODE_TYPES: readonly string[] = ["text", "file", "link", "group"];
const SIDES: readonly string[] = ["top", "right", "bottom", "left"];
const ENDS: readonly string[] = ["none", "arrow"];
const BACKGROUND_STYLES: readonly string[] = ["cover", "ratio", "repeat"];

class CanvasError extends Error {}

/**
 * Whether JSON text opens more than `max` arrays and objects inside one another (strings skipped).
 * JSON.parse took seconds in one piece on a canvas of nothing but nested brackets; a real canvas
 * nests four or five deep. Linear, and far cheaper than the parse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
	return runSteps(nestsDeeperThanSteps(text, max));
}

/** `nestsDeeperThan` as steps, one a NOTE_TEXT_PIECE_CHARS of text: a canvas may be megabytes. */
export function* nestsDeeperThanSteps(text: string, max: number): Steps<boolean> {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		if (index % NOTE_TEXT_PIECE_CHARS === NOTE_TEXT_PIECE_CHARS - 1) yield;
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === 0x5c) index++;
			else if (code === 0x22) inString = false;
		} else if (code === 0x22) inString = true;
		else if (code === 0x5b || code === 0x7b) {
			if (++depth > max) return true;
		} else if (code === 0x5d || code === 0x7d) depth--;
	}
	return false;
}

/** The canvas the text holds, or what about it does not follow JSON Canvas 1.0. */
export function parseCanvas(text: string): Result<Canvas> {
	return runSteps(parseCanvasSteps(text));
}

/** `parseCanvas` as steps, its JSON a piece at a time, then one a node or an edge: 5,000 cards read in one piece held the server about 20 ms. */
export function* parseCanvasSteps(text: string): Steps<Result<Canvas>> {
	if (text.trim() === "") return ok({ nodes: [], edges: [] });
	if (yield* nestsDeeperThanSteps(text, CANVAS_MAX_NESTING))
		return fail(`The canvas nests arrays and objects more than ${CANVAS_MAX_NESTING} deep; JSON Canvas needs a few.`);
	const json = yield* parseJsonSteps(text, CANVAS_JSON_PIECE_CHARS, CANVAS_MAX_NESTING);
	if (!json.ok) return fail(`The canvas is not valid JSON (${json.error}).`);
	const raw = json.value;
	try {
		if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CanvasError('The canvas must be a JSON object with "nodes" and "edges".');
		const { nodes = [], edges = [] } = raw as { nodes?: unknown; edges?: unknown };
		if (!Array.isArray(nodes)) throw new CanvasError('"nodes" must be a list.');
		if (!Array.isArray(edges)) throw new CanvasError('"edges" must be a list.');
		const parsedNodes: CanvasNode[] = [];
		for (const [index, node] of nodes.entries()) {
			parsedNodes.push(readNode(node, index));
			yield;
		}
		const ids = new Set<string>();
		for (const node of parsedNodes) {
			if (ids.has(node.id)) throw new CanvasError(`Two nodes have the id "${echoed(node.id)}".`);
			ids.add(node.id);
		}
		const parsedEdges: CanvasEdge[] = [];
		for (const [index, edge] of edges.entries()) {
			parsedEdges.push(readEdge(edge, index, ids));
			yield;
		}
		return ok({ nodes: parsedNodes, edges: parsedEdges });
	} catch (error) {
		if (error instanceof CanvasError) return fail(error.message);
		throw error;
	}
}

function optionalText(object: Record<string, unknown>, key: string, where: string, allowed?: readonly string[]): string | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw new CanvasError(`${where}: "${key}" must be text.`);
	if (allowed && !allowed.includes(value)) throw new CanvasError(`${where}: "${key}" is "${echoed(value)}"; it must be one of ${allowed.join(", ")}.`);
	return value;
}

function requiredText(object: Record<string, unknown>, key: string, where: string): string {
	const value = optionalText(object, key, where);
	if (value === undefined) throw new CanvasError(`${where} has no "${key}".`);
	return value;
}

function readNode(raw: unknown, index: number): CanvasNode {
	const where = `Node ${index + 1}`;
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CanvasError(`${where} is not an object.`);
	const object = raw as Record<string, unknown>;
	const id = requiredText(object, "id", where);
	const named = `${where} ("${echoed(id)}")`;
	const type = requiredText(object, "type", named);
	if (!NODE_TYPES.includes(type)) throw new CanvasError(`${named} has type "${echoed(type)}"; JSON Canvas 1.0 has text, file, link and group nodes.`);
	const geometry: Record<string, number> = {};
	for (const key of ["x", "y", "width", "height"]) {
		const value = object[key];
		if (typeof value !== "number" || !Number.isFinite(value)) throw new CanvasError(`${named} has no numeric "${key}".`);
		geometry[key] = value;
	}
	const node: CanvasNode = {
		id,
		type: type as CanvasNodeType,
		x: geometry.x ?? 0,
		y: geometry.y ?? 0,
		width: geometry.width ?? 0,
		height: geometry.height ?? 0,
	};
	const color = optionalText(object, "color", named);
	if (color !== undefined) node.color = color;
	if (type === "text") node.text = requiredText(object, "text", named);
	if (type === "file") {
		node.file = requiredText(object, "file", named);
		const subpath = optionalText(object, "subpath", named);
		if (subpath !== undefined) node.subpath = subpath;
	}
	if (type === "link") node.url = requiredText(object, "url", named);
	if (type === "group") {
		const label = optionalText(object, "label", named);
		const background = optionalText(object, "background", named);
		const backgroundStyle = optionalText(object, "backgroundStyle", named, BACKGROUND_STYLES);
		if (label !== undefined) node.label = label;
		if (background !== undefined) node.background = background;
		if (backgroundStyle !== undefined) node.backgroundStyle = backgroundStyle;
	}
	return node;
}

function readEdge(raw: unknown, index: number, nodeIds: ReadonlySet<string>): CanvasEdge {
	const where = `Edge ${index + 1}`;
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CanvasError(`${where} is not an object.`);
	const object = raw as Record<string, unknown>;
	const id = requiredText(object, "id", where);
	const named = `${where} ("${echoed(id)}")`;
	const edge: CanvasEdge = { id, fromNode: requiredText(object, "fromNode", named), toNode: requiredText(object, "toNode", named) };
	for (const end of [edge.fromNode, edge.toNode])
		if (!nodeIds.has(end)) throw new CanvasError(`${named} connects node "${echoed(end)}", which the canvas does not have.`);
	const fields: Array<[keyof CanvasEdge, readonly string[] | undefined]> = [
		["fromSide", SIDES],
		["toSide", SIDES],
		["fromEnd", ENDS],
		["toEnd", ENDS],
		["color", undefined],
		["label", undefined],
	];
	for (const [key, allowed] of fields) {
		const value = optionalText(object, key, named, allowed);
		if (value !== undefined) edge[key] = value;
	}
	return edge;
}
