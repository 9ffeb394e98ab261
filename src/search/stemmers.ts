/**
 * Word forms for search: a stemmer per language from @orama/stemmers (Snowball and Porter
 * algorithms), and for English the Snowball English stemmer (Porter2, from `porter2`), chosen by
 * the `searchLanguage` setting, so `renamed` finds `renaming`, `plugins` finds `plugin` and
 * `quickly` finds `quick` (the older Porter stemmer keeps `quickli`, and `deletion` apart from `delete`). The engine stems the folded tokens it already has (lower case,
 * diacritics removed), in the index and in a scan alike.
 *
 * Offered: the languages whose words survive folding. The stemmers for Hindi, Nepali, Sanskrit
 * and Tamil read vowel signs that folding removes, so they are left out.
 */
import { stemmer as arabic } from "@orama/stemmers/arabic";
import { stemmer as armenian } from "@orama/stemmers/armenian";
import { stemmer as bulgarian } from "@orama/stemmers/bulgarian";
import { stemmer as danish } from "@orama/stemmers/danish";
import { stemmer as dutch } from "@orama/stemmers/dutch";
import { stemmer as finnish } from "@orama/stemmers/finnish";
import { stemmer as french } from "@orama/stemmers/french";
import { stemmer as german } from "@orama/stemmers/german";
import { stemmer as greek } from "@orama/stemmers/greek";
import { stemmer as hungarian } from "@orama/stemmers/hungarian";
import { stemmer as indonesian } from "@orama/stemmers/indonesian";
import { stemmer as irish } from "@orama/stemmers/irish";
import { stemmer as italian } from "@orama/stemmers/italian";
import { stemmer as lithuanian } from "@orama/stemmers/lithuanian";
import { stemmer as norwegian } from "@orama/stemmers/norwegian";
import { stemmer as portuguese } from "@orama/stemmers/portuguese";
import { stemmer as romanian } from "@orama/stemmers/romanian";
import { stemmer as russian } from "@orama/stemmers/russian";
import { stemmer as serbian } from "@orama/stemmers/serbian";
import { stemmer as spanish } from "@orama/stemmers/spanish";
import { stemmer as swedish } from "@orama/stemmers/swedish";
import { stemmer as turkish } from "@orama/stemmers/turkish";
import { stemmer as ukrainian } from "@orama/stemmers/ukrainian";
import { stem as english } from "porter2";

/** A word's stem: two words with the same stem are forms of one word. */
export type Stemmer = (word: string) => string;

import type { SearchLanguage } from "./languages";

export { DEFAULT_SEARCH_LANGUAGE, SEARCH_LANGUAGES, type SearchLanguage } from "./languages";

const STEMMERS: Record<Exclude<SearchLanguage, "none">, Stemmer> = {
	arabic,
	armenian,
	bulgarian,
	danish,
	dutch,
	english,
	finnish,
	french,
	german,
	greek,
	hungarian,
	indonesian,
	irish,
	italian,
	lithuanian,
	norwegian,
	portuguese,
	romanian,
	russian,
	serbian,
	spanish,
	swedish,
	turkish,
	ukrainian,
};

/** Shortest word that is stemmed: shorter ones (`is`, `was`, ids) have no forms worth finding. */
const MIN_STEMMED_CHARS = 4;
/**
 * Shortest word whose stem is kept when the stemmer only respells its ending (same length):
 * `spy` → `spi`, the stem of `spies`, `spying` and `spied`, as `try` → `tri` meets `tries` and
 * `trying`. Left as typed, a short word never met its own forms, so `spying` missed a page titled
 * `prefer-spy-on`. A stem that cuts a short word shorter (`its` → `it`, `ids` → `id`, `ups` →
 * `up`) would merge different words, so below MIN_STEMMED_CHARS only a same-length stem counts.
 */
const MIN_RESPELLED_CHARS = 3;
/** A word of letters only: numbers, codes and mixed tokens are matched as typed. */
const LETTERS_ONLY = /^\p{L}+$/u;

/** The stemmer for a language, or null for `none`. Words too short or not all letters stem to themselves. */
export function stemmerFor(language: SearchLanguage): Stemmer | null {
	if (language === "none") return null;
	const stem: Stemmer = STEMMERS[language];
	return (word) => {
		if (word.length < MIN_RESPELLED_CHARS || !LETTERS_ONLY.test(word)) return word;
		if (word.length >= MIN_STEMMED_CHARS) return stem(word);
		const respelled = stem(word);
		return respelled.length === word.length ? respelled : word;
	};
}
