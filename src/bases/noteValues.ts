/** A note's properties as Bases types them: wikilinks become links, ISO dates become dates. */
import { DateValue, LinkValue, ObjectValue, parseDateText, type BaseFile, type BaseVault, type Value } from "./values";

/** A note property's value, as Bases types it: wikilinks become links, ISO dates become dates. */
export function notePropertyValue(file: BaseFile, name: string, vault: BaseVault): Value {
	const properties = file.properties();
	if (!properties || !Object.prototype.hasOwnProperty.call(properties, name)) return null;
	return fromFrontmatter(properties[name], file, vault, 0);
}

function fromFrontmatter(raw: unknown, file: BaseFile, vault: BaseVault, depth: number): Value {
	if (raw === null || raw === undefined) return null;
	if (typeof raw === "boolean" || typeof raw === "number") return raw;
	if (typeof raw === "string") {
		const wikilink = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(raw.trim());
		if (wikilink) return makeLink(wikilink[1] ?? "", file.path, vault, wikilink[2]);
		return parseDateText(raw) ?? raw;
	}
	if (raw instanceof Date) return new DateValue(raw.getTime(), true);
	// Frontmatter is bounded in size; its nesting is bounded here so a deep YAML cannot recurse far.
	if (depth > 32) return null;
	if (Array.isArray(raw)) return raw.map((item) => fromFrontmatter(item, file, vault, depth + 1));
	if (typeof raw === "object") {
		return new ObjectValue(
			new Map(Object.entries(raw as Record<string, unknown>).map(([key, value]) => [key, fromFrontmatter(value, file, vault, depth + 1)])),
		);
	}
	return null;
}

export function makeLink(text: string, sourcePath: string, vault: BaseVault, display?: string): LinkValue {
	const inner = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(text.trim());
	const link = inner ? (inner[1] ?? "") : text;
	const shown = display ?? (inner ? inner[2] : undefined);
	const linkpath = link.split("#", 1)[0] ?? "";
	const target = /^[a-z][a-z0-9+.-]*:/i.test(link) ? null : vault.resolveLink(linkpath, sourcePath);
	return new LinkValue(link, target, shown);
}

export function noteObject(file: BaseFile, vault: BaseVault): ObjectValue {
	const properties = file.properties() ?? {};
	return new ObjectValue(new Map(Object.keys(properties).map((key) => [key, notePropertyValue(file, key, vault)])));
}
