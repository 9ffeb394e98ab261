import { ACTIVITY_LOG_SIZE } from "./config/limits";

/** How a call ended. `fixable` is an error result the model can act on; `failed` is a bug. */
export type ActivityOutcome = "ok" | "fixable" | "failed";

/** One tool call, as the activity list shows it: metadata only, never arguments or note text. */
export interface ActivityRecord {
	time: string;
	tokenName: string;
	tool: string;
	durationMs: number;
	responseBytes: number;
	outcome: ActivityOutcome;
}

/**
 * The last calls, newest last, bounded. Once full, a call's record takes the oldest one's place in
 * a ring: every call adds a record, and dropping the oldest with a splice moved the whole list and
 * made a new array each time (0.6–3% of a small call's time in 8-client profiles).
 */
export class ActivityLog {
	private readonly records: ActivityRecord[] = [];
	/** Once full: where the oldest record is, which the next one replaces. */
	private oldest = 0;

	add(record: ActivityRecord): void {
		if (this.records.length < ACTIVITY_LOG_SIZE) {
			this.records.push(record);
			return;
		}
		this.records[this.oldest] = record;
		this.oldest = (this.oldest + 1) % ACTIVITY_LOG_SIZE;
	}

	list(): readonly ActivityRecord[] {
		return [...this.records.slice(this.oldest), ...this.records.slice(0, this.oldest)];
	}

	clear(): void {
		this.records.length = 0;
		this.oldest = 0;
	}
}

/** Where the server reports what happened. Implementations must not add note text, queries or tokens. */
export interface Logger {
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

/** The class name and code of an error, without its message (which can quote note text): what a log line may say about a failure. */
export function errorKind(error: unknown): string {
	if (!(error instanceof Error)) return typeof error;
	const code = (error as NodeJS.ErrnoException).code;
	return code ? `${error.name} (${code})` : error.name;
}
