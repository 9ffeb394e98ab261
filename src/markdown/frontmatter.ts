import type { FrontMatterCache, FrontmatterLinkCache } from "obsidian";
import { isMap, isScalar, parseDocument, visit } from "yaml";
import { scanInline } from "./inline";
import { LineIndex } from "./lines";

const FENCE = "---";

/** The line that closes a frontmatter block opened on line 0, or null if the note has none. */
export function frontmatterEndLine(lines: LineIndex): number | null {
	if (lines.lineText(0).trimEnd() !== FENCE) return null;
	for (let line = 1; line < lines.lineCount; line++) {
		if (lines.lineText(line).trimEnd() === FENCE) return line;
	}
	return null;
}

/**
 * A note split at its frontmatter: the YAML between the fences (line endings kept) and the body
 * after the closing fence's line; null when the note has no frontmatter.
 */
export function splitFrontmatter(text: string): { yaml: string; body: string } | null {
	const lines = new LineIndex(text);
	const end = frontmatterEndLine(lines);
	if (end === null) return null;
	return { yaml: text.slice(lines.lineStart(1), lines.lineStart(end)), body: text.slice(lines.lineStart(end + 1)) };
}

/**
 * Frontmatter YAML as Obsidian exposes it: the YAML 1.2 core schema, so dates stay strings and
 * empty values are null. Returns null for an empty block or YAML that is broken or not a mapping
 * (Obsidian then has no `frontmatter`, and the rest of the note's metadata is unaffected).
 */
export function parseFrontmatter(yaml: string): FrontMatterCache | null {
	if (yaml.trim() === "") return null;
	try {
		// The yaml package checks each key against every earlier key of its map: quadratic in a
		// map's size (issue 12). Its check is off here and the same rule is kept in one pass below.
		// Its warnings would print a piece of the note on stderr: note text is never logged.
		const document = parseDocument(yaml, { schema: "core", prettyErrors: false, uniqueKeys: false, logLevel: "error" });
		if (document.errors.length > 0 || hasDuplicateKey(document)) return null;
		const value: unknown = document.toJS();
		if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
		return value;
	} catch {
		return null;
	}
}

/** The yaml package's own rule, linear: two keys of one map are the same when both are scalars with equal (===) values. */
export function hasDuplicateKey(document: ReturnType<typeof parseDocument>): boolean {
	let duplicate = false;
	visit(document, {
		Map: (_key, map) => {
			if (!isMap(map)) return undefined;
			const seen = new Set<unknown>();
			for (const pair of map.items) {
				if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
				if (seen.has(pair.key.value)) {
					duplicate = true;
					return visit.BREAK;
				}
				seen.add(pair.key.value);
			}
			return undefined;
		},
	});
	return duplicate;
}

/** Wikilinks in text properties, keyed `property` or `property.index` for list items, like Obsidian. */
export function frontmatterLinks(frontmatter: FrontMatterCache): FrontmatterLinkCache[] {
	const found: FrontmatterLinkCache[] = [];
	const collect = (key: string, value: unknown) => {
		if (typeof value !== "string") return;
		for (const link of scanInline(value).links) {
			if (link.original.startsWith("[[")) found.push({ key, link: link.link, original: link.original, displayText: link.displayText });
		}
	};
	for (const [key, value] of Object.entries(frontmatter)) {
		if (Array.isArray(value)) value.forEach((item, index) => collect(`${key}.${index}`, item));
		else collect(key, value);
	}
	return found;
}


/**
 * A note's aliases as Obsidian reads them: the `aliases` property (or the older `alias`), a list
 * or one comma-separated text; anything else is ignored. Pure.
 */
export function frontmatterAliases(frontmatter: FrontMatterCache | undefined): string[] {
	const value: unknown = frontmatter?.aliases ?? frontmatter?.alias;
	const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
	return items.filter((item): item is string => typeof item === "string").map((item) => item.trim()).filter((item) => item !== "");
}
