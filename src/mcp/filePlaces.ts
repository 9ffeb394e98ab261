/**
 * Where a tool's answer names a file or folder of the vault, read off its output schema: a string
 * there is never cut to fit into a part of it, only sent empty (cutToFit.ts). Cut to a prefix,
 * `A/B/Long name` was sent as `A/B/Lon`, which names another note (a planted `A/B/Lon.md`): a client
 * that read the path and not `cut_to_fit` read or completed tasks in the wrong note. A path is kept
 * whole; a link's text (`Long name#heading`, `[[Long name|shown]]`) keeps the part that names the note
 * and may lose the rest. The schema's own fields count, and a base's cells that are files or links
 * (marked by the query as it makes them, `cellNamings`): a record's other keys and values (a note's
 * frontmatter) and an `unknown` value are the author's, so a property called `path` is text like any
 * other. Pure.
 */
import { z } from "zod";
import { cellNamings } from "../bases/query";
import type { ValueNaming } from "../bases/values";

/**
 * Keys whose value is a vault path, or a list of them, wherever a tool's output schema has them;
 * and a page's cursor, which holds paths: cut to a prefix it is no cursor, so it too is kept whole.
 */
const FILE_NAMING_KEYS: ReadonlySet<string> = new Set([
	"next_cursor",
	"path",
	"new_path",
	"backup",
	"target",
	"file",
	"background",
	"folder",
	"notes",
	"unsearched_notes",
	"still_being_read",
	"frontmatter_not_rewritten",
	"notes_not_read",
]);

/** Whether an answer's field of this name holds a vault path, or a list of them (written calls' answers are checked by them). */
export function isFileNamingKey(key: string): boolean {
	return FILE_NAMING_KEYS.has(key);
}

/** Keys whose value is a link's text (the note it names, then perhaps a heading or shown text), or a list of them. */
const LINK_TEXT_KEYS: ReadonlySet<string> = new Set(["link", "unresolved"]);

/** How a string names a file: as its path (kept whole), or as a link's text (its link path kept whole). */
export type NameKind = "path" | "link";

/** The places under one value of an answer where a string names a file. */
export interface FilePlaces {
	/** Every string here names a file, and how (a path, or each item of a list of paths); null: none does. */
	readonly names: NameKind | null;
	/** An object's fields that hold such places. */
	readonly keys: ReadonlyMap<string, FilePlaces>;
	/** An array's items, when they hold such places. */
	readonly items: FilePlaces | null;
	/** An array's items one by one, where they differ (a base's list cell of files, links and text). */
	readonly at?: ReadonlyMap<number, FilePlaces>;
}

const NAMES_FILE: FilePlaces = { names: "path", keys: new Map(), items: null };
const NAMES_LINK: FilePlaces = { names: "link", keys: new Map(), items: null };

/** `schema` without optional, nullable and default wrappers (a `.describe` keeps its class). */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
	let inner = schema;
	while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap();
	return inner;
}

/** Whether `schema` is a string, or a list of strings: a path or paths (list_notes' `notes` is a list of objects, each with its path). */
function isTextOrList(schema: z.core.$ZodType): boolean {
	const inner = unwrapped(schema);
	return inner instanceof z.ZodString || (inner instanceof z.ZodArray && unwrapped(inner.element) instanceof z.ZodString);
}

/** The file places of a value of `schema` whose own key is not one that names a file; null when it holds none. */
function placesIn(schema: z.core.$ZodType): FilePlaces | null {
	const inner = unwrapped(schema);
	if (inner instanceof z.ZodArray) {
		const items = placesIn(inner.element);
		return items === null ? null : { names: null, keys: new Map(), items };
	}
	if (inner instanceof z.ZodObject) return filePlacesOf(inner.shape);
	return null;
}

/** The places where an answer of an object schema of this `shape` names a file; null when it names none. */
export function filePlacesOf(shape: z.ZodRawShape): FilePlaces | null {
	const keys = new Map<string, FilePlaces>();
	for (const [key, field] of Object.entries(shape)) {
		const places = !isTextOrList(field) ? placesIn(field) : FILE_NAMING_KEYS.has(key) ? NAMES_FILE : LINK_TEXT_KEYS.has(key) ? NAMES_LINK : null;
		if (places !== null) keys.set(key, places);
	}
	return keys.size === 0 ? null : { names: null, keys, items: null };
}

/** The places under the field or item `part` of a value whose places are `places`. */
export function filePlacesAt(places: FilePlaces | null, part: string | number): FilePlaces | null {
	if (places === null) return null;
	if (places.names !== null) return places;
	return typeof part === "number" ? (places.at?.get(part) ?? places.items) : (places.keys.get(part) ?? null);
}

/** The places of a value the query says names files (`namingOf`): a path, a link, or a list's items. */
function placesOfNaming(naming: ValueNaming): FilePlaces {
	if (naming === "path") return NAMES_FILE;
	if (naming === "link") return NAMES_LINK;
	return { names: null, keys: new Map(), items: null, at: new Map([...naming].map(([index, item]) => [index, placesOfNaming(item)])) };
}

/** For a base row's cells (`values`), or a row whose group names files, where they name files, from the namings the query gave them; null for any other object. */
export function placesOfBaseCells(value: object): FilePlaces | null {
	const namings = cellNamings.get(value);
	if (namings === undefined) return null;
	return { names: null, keys: new Map([...namings].map(([id, naming]) => [id, placesOfNaming(naming)])), items: null };
}
