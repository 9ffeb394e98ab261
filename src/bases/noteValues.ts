/** A note's properties as Bases types them: wikilinks become links, ISO dates become dates. */
import { BASES_TEXT_CHARS_PER_STEP } from "../config/limits";
import type { EvaluationBudget } from "./evaluationContext";
import { DateValue, LinkValue, ObjectValue, parseDateText, type BaseFile, type BaseVault, type Value } from "./values";

/**
 * A note property's value, as Bases types it: wikilinks become links, ISO dates become dates. Made
 * anew at each reference, its values counted on `budget` as they are made (a step for each item of a list
 * or an object, and for a text what its match as a link and a date walks, `madeTextSteps`), so the piece's
 * clock is read during a long one: uncounted, a formula naming a list of 1,990 dates 500 times was one
 * piece of 260 ms, and in Obsidian, whose frontmatter has no bound, one `note.isEmpty()` over lists of
 * 100,000 items 550 ms.
 */
export function notePropertyValue(file: BaseFile, name: string, vault: BaseVault, budget: EvaluationBudget): Value {
	const properties = file.properties();
	if (!properties || !Object.prototype.hasOwnProperty.call(properties, name)) return null;
	return fromFrontmatter(properties[name], file, vault, budget, 0);
}

function fromFrontmatter(raw: unknown, file: BaseFile, vault: BaseVault, budget: EvaluationBudget, depth: number): Value {
	if (raw === null || raw === undefined) return null;
	if (typeof raw === "boolean" || typeof raw === "number") return raw;
	if (typeof raw === "string") {
		budget.spend(madeTextSteps(raw));
		const wikilink = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(raw.trim());
		if (wikilink) return makeLink(wikilink[1] ?? "", file.path, vault, wikilink[2]);
		return parseDateText(raw) ?? raw;
	}
	if (raw instanceof Date) return new DateValue(raw.getTime(), true);
	// Frontmatter is bounded in size; its nesting is bounded here so a deep YAML cannot recurse far.
	if (depth > 32) return null;
	if (Array.isArray(raw)) {
		budget.spend(raw.length);
		return raw.map((item) => fromFrontmatter(item, file, vault, budget, depth + 1));
	}
	if (typeof raw === "object") {
		const entries = Object.entries(raw as Record<string, unknown>);
		budget.spend(entries.length);
		return new ObjectValue(new Map(entries.map(([key, value]) => [key, fromFrontmatter(value, file, vault, budget, depth + 1)])));
	}
	return null;
}

/**
 * What matching a text as a wikilink and a date costs: one step per BASES_TEXT_CHARS_PER_STEP characters when
 * they walk it (it begins with "[", or `trim` walks white space at an end), else one, whatever its length (both
 * patterns are anchored and fail within a few characters: 0.3 µs for 8 KB). Counting every text by its length
 * counted it twice with the walk of the method that reads it: 10,000 notes' 8 KB summaries under
 * `summary.contains(…)` spent 2,000,000 steps and were refused, where 1,520,000 had answered.
 */
function madeTextSteps(text: string): number {
	const walked = text.startsWith("[") || /^\s|\s$/.test(text);
	return walked ? Math.ceil(text.length / BASES_TEXT_CHARS_PER_STEP) : 1;
}

export function makeLink(text: string, sourcePath: string, vault: BaseVault, display?: string): LinkValue {
	const inner = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(text.trim());
	const link = inner ? (inner[1] ?? "") : text;
	const shown = display ?? (inner ? inner[2] : undefined);
	const linkpath = link.split("#", 1)[0] ?? "";
	const target = /^[a-z][a-z0-9+.-]*:/i.test(link) ? null : vault.resolveLink(linkpath, sourcePath);
	return new LinkValue(link, target, shown);
}

/** All of a note's properties as one object (`note`, `file.properties`), each counted as notePropertyValue counts it. */
export function noteObject(file: BaseFile, vault: BaseVault, budget: EvaluationBudget): ObjectValue {
	const properties = file.properties() ?? {};
	return new ObjectValue(new Map(Object.keys(properties).map((key) => [key, notePropertyValue(file, key, vault, budget)])));
}
