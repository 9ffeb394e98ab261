import type { TokenRecord } from "./tokens";

/** An accepted request: who is asking and what they may do. */
export interface Grant {
	token: TokenRecord;
	canWrite: boolean;
}
