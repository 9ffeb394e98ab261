import type { Server } from "node:net";
import { DEFAULT_PORT_HOLDER } from "./globalSetup";

/** Frees the default port that globalSetup held for the run. */
export default async function globalTeardown(): Promise<void> {
	const holder = (globalThis as Record<symbol, unknown>)[DEFAULT_PORT_HOLDER] as Server | undefined;
	if (!holder) return;
	await new Promise<void>((resolve) => holder.close(() => resolve()));
}
