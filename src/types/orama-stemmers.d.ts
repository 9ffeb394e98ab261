// @orama/stemmers publishes each language under a package subpath (its "exports"); this
// project's TypeScript resolves modules the node10 way, which does not read "exports", so the
// subpaths' one export is declared here. The bundler and jest resolve them from "exports".
declare module "@orama/stemmers/arabic" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/armenian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/bulgarian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/danish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/dutch" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/english" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/finnish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/french" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/german" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/greek" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/hungarian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/indonesian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/irish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/italian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/lithuanian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/norwegian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/portuguese" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/romanian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/russian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/serbian" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/spanish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/swedish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/turkish" {
	export function stemmer(word: string): string;
}
declare module "@orama/stemmers/ukrainian" {
	export function stemmer(word: string): string;
}
