/**
 * Where a note's level-1 and level-2 sections start, from its Markdown: a long page says one topic a
 * section, so a question's words said in one section are about one thing, and said in different
 * sections about several (the engine's proximity pass, SECTION_SHARE). Pure.
 */

/** A line opening or closing fenced code: three or more backticks or tildes, indented at most three spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A level-1 or level-2 ATX heading: one or two `#`, then a space, a tab or the line's end. */
const TOP_HEADING = /^ {0,3}#{1,2}(?:[ \t]|$)/;
/** The first characters (after up to three spaces) of the lines that may matter: `#`, a fence's, front matter's end. */
const MARKERS: ReadonlySet<number> = new Set(["#", "`", "~", "-", "."].map((character) => character.charCodeAt(0)));
const SPACE = 32;
/** The line that opens front matter, and the lines that may close it. */
const FRONT_MATTER_OPEN = "---";
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * The offsets of the lines of `text` that start a level-1 or level-2 ATX heading, ascending, in its
 * first `maxChars` characters: not inside fenced code (a `#` there is a shell comment) nor in front
 * matter (a YAML comment). Setext headings are not looked for: documentation rarely writes them,
 * and their underline `---` is also a thematic break.
 */
export function topHeadingOffsets(text: string, maxChars: number): number[] {
	const end = Math.min(text.length, maxChars);
	const offsets: number[] = [];
	let fence: string | null = null;
	let inFrontMatter = false;
	for (let start = 0; start < end;) {
		const newline = text.indexOf("\n", start);
		const lineEnd = newline < 0 || newline > end ? end : newline;
		// Only a line whose first character after its indent may open or close something is looked at: most lines are prose.
		let first = start;
		while (first < lineEnd && first - start < 3 && text.charCodeAt(first) === SPACE) first++;
		if (start > 0 && !MARKERS.has(text.charCodeAt(first))) {
			start = lineEnd + 1;
			continue;
		}
		const line = text.slice(start, lineEnd).replace(/\r$/, "");
		if (start === 0 && line.trimEnd() === FRONT_MATTER_OPEN) inFrontMatter = true;
		else if (inFrontMatter) inFrontMatter = !FRONT_MATTER_CLOSE.test(line);
		else {
			const opened = FENCE.exec(line);
			if (opened) {
				const marker = opened[1] as string;
				// A fence closes only with the same character, at least as long as the one that opened it.
				if (fence === null) fence = marker;
				else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
			} else if (fence === null && TOP_HEADING.test(line)) offsets.push(start);
		}
		start = lineEnd + 1;
	}
	return offsets;
}
