import type { Host } from "../host/Host";
import type { Canvas, CanvasEdge, CanvasNode } from "../canvas/jsonCanvas";
import { isPathVisible, type Scope } from "./scope";
import { runSteps, type Steps } from "../markdown/steps";
import { normalizeVaultPath } from "../paths/spelling";

/** A canvas node as a tool returns it: a file node also says whether the file it shows exists. */
export type VisibleCanvasNode = CanvasNode & { exists?: boolean };

/** A URL (`https:`, `obsidian:`…) rather than a vault path. */
function isUrl(text: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(text);
}

/**
 * True when the card's path is visible both as written and as the vault reads it: `getFileByPath`
 * turns backslashes into slashes and drops slashes at the ends, so a card showing `/Private/Diary.md`
 * passed the exclusion as written and was then found, its `exists` telling the excluded file was there.
 */
function isCardPathVisible(path: string, scope: Scope): boolean {
	return isPathVisible(path, scope) && isPathVisible(normalizeVaultPath(path), scope);
}

/**
 * The canvas as this caller may see it. A file node whose file lies in an excluded folder (or is
 * hidden) is dropped with the edges that touch it, exactly as if the card were not there — the same
 * whether that file exists or not, so nothing about an excluded folder can be learnt from a canvas.
 * A group's background image there is dropped the same way.
 */
export function visibleCanvas(host: Host, scope: Scope, canvas: Canvas): { nodes: VisibleCanvasNode[]; edges: CanvasEdge[] } {
	return runSteps(visibleCanvasSteps(host, scope, canvas));
}

/**
 * A file card with `exists` as the vault is now: a caller that paused since the card was made looks again before answering.
 * A file at the card's path as written, as Obsidian looks a path up (`getAbstractFileByPath`: as given, case sensitive):
 * headless, `getFileByPath` also finds the file at the path's normalised spelling, so a card naming a note in NFD or with a
 * no-break space for a plain one existed headless and not in Obsidian.
 */
export function fileCardNow(host: Host, node: VisibleCanvasNode): VisibleCanvasNode {
	if (node.type !== "file" || node.file === undefined) return node;
	return { ...node, exists: host.vault.getFileByPath(node.file)?.path === node.file };
}

/** `visibleCanvas` as steps, one a node or an edge. */
export function* visibleCanvasSteps(host: Host, scope: Scope, canvas: Canvas): Steps<{ nodes: VisibleCanvasNode[]; edges: CanvasEdge[] }> {
	const nodes: VisibleCanvasNode[] = [];
	for (const node of canvas.nodes) {
		yield;
		if (node.type === "file" && node.file !== undefined) {
			if (!isCardPathVisible(node.file, scope)) continue;
			nodes.push(fileCardNow(host, node));
			continue;
		}
		if (node.background !== undefined && !isUrl(node.background) && !isCardPathVisible(node.background, scope)) {
			const { background: _hidden, ...rest } = node;
			nodes.push(rest);
			continue;
		}
		nodes.push(node);
	}
	const kept = new Set(nodes.map((node) => node.id));
	const edges: CanvasEdge[] = [];
	for (const edge of canvas.edges) {
		yield;
		if (kept.has(edge.fromNode) && kept.has(edge.toNode)) edges.push(edge);
	}
	return { nodes, edges };
}
