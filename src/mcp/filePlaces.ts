/**
 * Where a tool's answer names a file or folder of the vault, read off its output schema: a string
 * there is never cut to a part to fit, only sent empty (cutToFit.ts). Cut to a prefix, `A/B/Long name` was sent as `A/B/Lon`,
 * which names another note (a planted `A/B/Lon.md`): a client that read the path and not
 * `cut_to_fit` read or completed tasks in the wrong note. Only the schema's own fields count: a
 * record's keys (a note's frontmatter, a base's cells) and an `unknown` value are the author's, so a
 * property called `path` is text like any other. Pure.
 */
import { z } from "zod";

/** Keys whose value is a vault path, or a list of them, wherever a tool's output schema has them. */
const FILE_NAMING_KEYS: ReadonlySet<string> = new Set([
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

/** The places under one value of an answer where a string names a file. */
export interface FilePlaces {
	/** Every string here names a file (a path, or each item of a list of paths). */
	readonly names: boolean;
	/** An object's fields that hold such places. */
	readonly keys: ReadonlyMap<string, FilePlaces>;
	/** An array's items, when they hold such places. */
	readonly items: FilePlaces | null;
}

const NAMES_FILE: FilePlaces = { names: true, keys: new Map(), items: null };

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
		return items === null ? null : { names: false, keys: new Map(), items };
	}
	if (inner instanceof z.ZodObject) return filePlacesOf(inner.shape);
	return null;
}

/** The places where an answer of an object schema of this `shape` names a file; null when it names none. */
export function filePlacesOf(shape: z.ZodRawShape): FilePlaces | null {
	const keys = new Map<string, FilePlaces>();
	for (const [key, field] of Object.entries(shape)) {
		const places = FILE_NAMING_KEYS.has(key) && isTextOrList(field) ? NAMES_FILE : placesIn(field);
		if (places !== null) keys.set(key, places);
	}
	return keys.size === 0 ? null : { names: false, keys, items: null };
}

/** The places under the field or item `part` of a value whose places are `places`. */
export function filePlacesAt(places: FilePlaces | null, part: string | number): FilePlaces | null {
	if (places === null) return null;
	if (places.names) return places;
	return typeof part === "number" ? places.items : (places.keys.get(part) ?? null);
}
