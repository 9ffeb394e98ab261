import { linkQuery, queriedName } from "../paths/linkResolution";
import { SplitStringMap } from "../markdown/splitStringMap";

/**
 * The name a link path asks for (lower case, as a file's `name` is compared): only a file of this
 * name, or of this name plus `.md`, can be the link's target. Null when the link names nothing.
 */
export function askedName(linkpath: string, sourcePath: string): string | null {
	const query = linkQuery(linkpath, sourcePath);
	return query === null ? null : queriedName(query);
}

/** The names a link to a file called `fileName` may have asked for: its name, and for a note `x.md` also `x`. */
export function namesAnsweredBy(fileName: string): string[] {
	const name = fileName.toLowerCase();
	return name.endsWith(".md") ? [name, name.slice(0, -".md".length)] : [name];
}

/**
 * Past this many sources, a name's are kept in a Set. Forgetting a source from an array searches it,
 * and a file created under a name 30,000 notes link to resolves each of them again, forgetting
 * each from the same list: work that grows as their square (the whole create took 1.0-1.4 s, with
 * a Set 0.3-0.4 s, at load 4). Few names have that many sources, so their Sets cost little memory.
 */
const SOURCES_IN_AN_ARRAY = 64;

/**
 * Which notes (and canvases) hold a link that asks for a given file name. A file created, deleted
 * or renamed can change where only those links lead, so only those sources are resolved again:
 * resolving every link of the vault on each change took seconds beside a note of 700,000 links.
 *
 * A name most often has one source, kept as the bare path; an array only past one, and a Set past
 * SOURCES_IN_AN_ARRAY. A Set per name cost the headless cache a third more memory on a 10,000-note vault.
 * The names are held in parts (`SplitStringMap`): one `Map` of a planted note's 650,000 names grew in a
 * piece of 37–51 ms as it was read.
 */
export class LinkSourcesByName {
	private readonly sources = new SplitStringMap<string | string[] | Set<string>>();

	/**
	 * Records that `source` has a link asking for `name`. A source's names are added in one pass, so
	 * a repeat is always its last entry there.
	 */
	add(name: string, source: string): void {
		const sources = this.sources.get(name);
		if (sources === undefined) this.sources.set(name, source);
		else if (typeof sources === "string") {
			if (sources !== source) this.sources.set(name, [sources, source]);
		} else if (sources instanceof Set) sources.add(source);
		else if (sources[sources.length - 1] !== source) {
			sources.push(source);
			if (sources.length > SOURCES_IN_AN_ARRAY) this.sources.set(name, new Set(sources));
		}
	}

	/** Forgets that `source` asked for `name` (nothing when it did not). */
	delete(name: string, source: string): void {
		const sources = this.sources.get(name);
		if (sources === source) this.sources.delete(name);
		else if (sources instanceof Set) {
			sources.delete(source);
			if (sources.size === 0) this.sources.delete(name);
		} else if (Array.isArray(sources)) {
			const at = sources.indexOf(source);
			if (at === -1) return;
			sources.splice(at, 1);
			if (sources.length === 1) this.sources.set(name, sources[0] as string);
		}
	}

	/**
	 * Gives back what the lists of sources grew by beyond their length (an array that grows keeps room
	 * for about half again plus 16 more): done once the whole vault is read, when no list grows fast.
	 */
	compact(): void {
		for (const [name, sources] of this.sources.entries()) if (Array.isArray(sources)) this.sources.set(name, sources.slice());
	}

	/** Whether `source` has a link a file called `fileName` could answer. */
	asks(source: string, fileName: string): boolean {
		return namesAnsweredBy(fileName).some((name) => {
			const sources = this.sources.get(name);
			if (sources === undefined || typeof sources === "string") return sources === source;
			return sources instanceof Set ? sources.has(source) : sources.includes(source);
		});
	}

	/** The sources whose links a file called `fileName` could answer (a copy: resolving them changes the index). */
	sourcesAsking(fileName: string): string[] {
		const found = new Set<string>();
		for (const name of namesAnsweredBy(fileName)) {
			const sources = this.sources.get(name);
			if (typeof sources === "string") found.add(sources);
			else for (const source of sources ?? []) found.add(source);
		}
		return [...found];
	}
}
