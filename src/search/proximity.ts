/**
 * How close a note keeps the query's words: the passage of a few dozen tokens of its body holding
 * the most of the query's idf, against the idf the whole body holds. A page about the question
 * says its words in one paragraph; a long reference page that holds every everyday word of the
 * question says them pages apart. Read from a body's packed token ids (packedIds.ts), for a
 * search's few best notes only (engine.ts). Pure.
 */

/** A token that is no query word's. */
export const NO_TERM = -1;

/**
 * What a query's words are, token id by token id: `codes[id]` is one more than the term's code, the
 * term's index times two plus one when the id is only a word meaning the same (expansions.ts); 0,
 * or an id past the table's end, is no query word's. A table, not a function: the scan looks up
 * every token of a body.
 */
export interface ProximityTerms {
	codes: Int32Array;
	/** Per term, its idf: what it weighs in a passage. */
	idf: Float64Array;
	/** What a term held only as a word meaning the same weighs, against 1 as typed or in another form. */
	relatedWeight: number;
}

/** Scratch that `passageEvidence` reuses from note to note, and what it found in the last one. */
export interface ProximityScratch {
	positions: Int32Array;
	codes: Int32Array;
	strong: Int32Array;
	related: Int32Array;
	anywhere: Float64Array;
	/** Per term, its weight in the section being read. */
	section: Float64Array;
	/** The idf the body read (and the names) holds anywhere, each term once at its best weight. */
	heldIdf: number;
	/** The most idf one passage holds, with the names' terms. */
	passageIdf: number;
	/** The most idf one section holds, with the names' terms: `heldIdf` when no sections were given. */
	sectionIdf: number;
}

/** Scratch for passages of `window` tokens and `termCount` query terms. */
export function proximityScratch(window: number, termCount: number): ProximityScratch {
	return {
		positions: new Int32Array(window),
		codes: new Int32Array(window),
		strong: new Int32Array(termCount),
		related: new Int32Array(termCount),
		anywhere: new Float64Array(termCount),
		section: new Float64Array(termCount),
		heldIdf: 0,
		passageIdf: 0,
		sectionIdf: 0,
	};
}

/**
 * Into `scratch`: the idf a body holds (`heldIdf`), the most idf that `window` consecutive tokens
 * of it hold (`passageIdf`), and the most idf one of its sections holds (`sectionIdf`; a section
 * starts at each of `sections`, token positions ascending, and runs to the next), each term counted
 * once at its weight (1 as typed or in another form, `relatedWeight` as a word meaning the same). A
 * term of the note's title or an alias (`named[term]` is 1) is near every word of the body: it
 * counts in every passage and section. The body is `packed[0, bodyBytes)`, read up to its first
 * `maxTokens` tokens.
 */
export function passageEvidence(
	packed: Uint8Array,
	bodyBytes: number,
	maxTokens: number,
	window: number,
	terms: ProximityTerms,
	named: Uint8Array,
	scratch: ProximityScratch,
	sections: Uint32Array | null = null,
): void {
	const { positions, codes, strong, related, anywhere, section } = scratch;
	const codeTable = terms.codes;
	const tableSize = codeTable.length;
	const termCount = terms.idf.length;
	strong.fill(0, 0, termCount);
	related.fill(0, 0, termCount);
	anywhere.fill(0, 0, termCount);
	const weightOf = (term: number): number => ((strong[term] as number) > 0 ? 1 : (related[term] as number) > 0 ? terms.relatedWeight : 0);
	// The passage's idf, as the window slides.
	let held = 0;
	for (let term = 0; term < termCount; term++)
		if (named[term] === 1) {
			strong[term] = 1;
			anywhere[term] = 1;
			held += terms.idf[term] as number;
		}
	let best = held;
	const namedIdf = held;
	// The section being read: its terms' weights (the names' in every section) and the idf they hold.
	for (let term = 0; term < termCount; term++) section[term] = named[term] === 1 ? 1 : 0;
	let sectionHeld = namedIdf;
	let bestSection = namedIdf;
	let nextSection = 0;
	const sectionCount = sections === null ? 0 : sections.length;
	// The matches inside the window, oldest first: a ring of at most `window` entries.
	let head = 0;
	let size = 0;
	let position = 0;
	let value = 0;
	let shift = 0;
	for (let index = 0; index < bodyBytes && position < maxTokens; index++) {
		const byte = packed[index] as number;
		value |= (byte & 0x7f) << shift;
		if (byte & 0x80) {
			shift += 7;
			continue;
		}
		const id = value >>> 0;
		const code = id < tableSize ? (codeTable[id] as number) - 1 : NO_TERM;
		value = 0;
		shift = 0;
		const at = position++;
		if (nextSection < sectionCount && at >= ((sections as Uint32Array)[nextSection] as number)) {
			while (nextSection < sectionCount && at >= ((sections as Uint32Array)[nextSection] as number)) nextSection++;
			for (let term = 0; term < termCount; term++) section[term] = named[term] === 1 ? 1 : 0;
			sectionHeld = namedIdf;
		}
		if (code === NO_TERM) continue;
		// Matches that fell out of the window leave it.
		while (size > 0 && (positions[head] as number) <= at - window) {
			const leaving = codes[head] as number;
			const term = leaving >> 1;
			const before = weightOf(term);
			if (leaving & 1) related[term] = (related[term] as number) - 1;
			else strong[term] = (strong[term] as number) - 1;
			held += (weightOf(term) - before) * (terms.idf[term] as number);
			head = (head + 1) % window;
			size--;
		}
		const term = code >> 1;
		const before = weightOf(term);
		if (code & 1) related[term] = (related[term] as number) + 1;
		else strong[term] = (strong[term] as number) + 1;
		const after = weightOf(term);
		if (after > (anywhere[term] as number)) anywhere[term] = after;
		// This token's own weight: the window's may come from a match in the section before.
		const own = code & 1 ? terms.relatedWeight : 1;
		if (own > (section[term] as number)) {
			sectionHeld += (own - (section[term] as number)) * (terms.idf[term] as number);
			section[term] = own;
			if (sectionHeld > bestSection) bestSection = sectionHeld;
		}
		held += (after - before) * (terms.idf[term] as number);
		const tail = (head + size) % window;
		positions[tail] = at;
		codes[tail] = code;
		size++;
		if (held > best) best = held;
	}
	let anywhereIdf = 0;
	for (let term = 0; term < termCount; term++) anywhereIdf += (anywhere[term] as number) * (terms.idf[term] as number);
	scratch.heldIdf = anywhereIdf;
	scratch.passageIdf = best;
	scratch.sectionIdf = sectionCount === 0 ? anywhereIdf : bestSection;
}
