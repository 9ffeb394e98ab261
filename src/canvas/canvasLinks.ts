import { CANVAS_JSON_PIECE_CHARS, CANVAS_MAX_FILE_BYTES, CANVAS_MAX_LINKED_TEXT_CHARS, CANVAS_MAX_NESTING } from "../config/limits";
import { parseJsonSteps } from "./jsonSteps";
import { metadataRecordsSteps } from "../markdown/metadata";
import { nestsDeeperThanSteps } from "./jsonCanvas";
import type { Steps } from "../markdown/steps";

/**
 * The links a canvas holds, as the metadata cache counts them: each text card's links and embeds,
 * and each file card's file (`shown`), in the order of the cards, handed to `found`. Read leniently,
 * unlike `parseCanvas`: a card of a plugin's own type, an edge to a deleted card or anything else
 * not JSON Canvas 1.0 still leaves the other cards' links counted, and text that holds no list of
 * cards (even `null`, or a `null` card) holds no links rather than an error: one such canvas made
 * the headless server refuse to start. A step after each card: a canvas of 25,000 text cards took
 * half a second to read in one piece. A canvas read_canvas would refuse for its size or its nesting
 * holds no links either: JSON.parse took 0.3 s for 16 MB and 2.8 s for 5 MB of nested brackets, at
 * start and on every backlinks call that reads it; the JSON is parsed a piece at a time. Text cards
 * are read for links up to CANVAS_MAX_LINKED_TEXT_CHARS in all: one card of 540,000 links was 2 s of
 * parsing on a backlinks call.
 */
export function* canvasLinksSteps(text: string, found: (link: string, shown: boolean) => void): Steps<void> {
	// Characters, not bytes: a text over the bound in characters is over it in UTF-8 bytes too.
	if (text.length > CANVAS_MAX_FILE_BYTES || (yield* nestsDeeperThanSteps(text, CANVAS_MAX_NESTING))) return;
	const json = yield* parseJsonSteps(text, CANVAS_JSON_PIECE_CHARS, CANVAS_MAX_NESTING);
	if (!json.ok) return;
	const canvas = json.value;
	const nodes = isObject(canvas) ? canvas.nodes : undefined;
	if (!Array.isArray(nodes)) return;
	let textLeft = CANVAS_MAX_LINKED_TEXT_CHARS;
	for (const node of nodes as unknown[]) {
		if (!isObject(node)) continue;
		if (node.type === "text" && typeof node.text === "string") {
			// Past the bound a card counts no links: its parse is the cost, not its links.
			if (node.text.length > textLeft) continue;
			textLeft -= node.text.length;
			const { cache } = yield* metadataRecordsSteps(node.text);
			// One by one: spreading a card's 100,000 links as arguments would overflow the stack.
			for (const entry of cache.links ?? []) found(entry.link, false);
			for (const entry of cache.embeds ?? []) found(entry.link, false);
		} else if (node.type === "file" && typeof node.file === "string") {
			found(node.file, true);
		}
		yield;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}
