import { defaultSettings, type VaultMcpSettings } from "../src/config/settings";

/**
 * A bench server's settings: listening on a free port, with no rate limit (a bench's load is
 * harsher than any budget allows), and writing switched on when `writes` (its disclosure accepted).
 */
export function benchSettings(writes: boolean): VaultMcpSettings {
	const settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 10_000_000 };
	return writes ? { ...settings, writeEnabled: true, writeDisclosureAccepted: true } : settings;
}
