/**
 * `new Date(ms).toISOString()`, the last one made remembered: a note read again keeps its modified
 * time, and calls logged in the same millisecond share theirs. Making a Date and its text was about
 * 1.5% of a small read's CPU at 8 clients. One per use, so two uses do not take turns evicting each other.
 */
export class IsoTimes {
	private lastMs = Number.NaN;
	private lastText = "";

	of(ms: number): string {
		if (ms !== this.lastMs) {
			this.lastText = new Date(ms).toISOString();
			this.lastMs = ms;
		}
		return this.lastText;
	}
}
