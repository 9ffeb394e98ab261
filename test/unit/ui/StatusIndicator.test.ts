import { indicatorState } from "../../../src/ui/StatusIndicator";

describe("indicatorState: what the ribbon icon and status bar say", () => {
	test.each<[string, Parameters<typeof indicatorState>[0], number, ReturnType<typeof indicatorState>]>([
		["off", { state: "stopped" }, 0, { icon: "plug", label: "Vault MCP: off", short: "MCP off", kind: "off" }],
		[
			"on, nobody connected",
			{ state: "listening", port: 27150, url: "http://127.0.0.1:27150/mcp" },
			0,
			{ icon: "plug-zap", label: "Vault MCP: on, 0 clients in the last minute", short: "MCP on · 0 clients", kind: "on" },
		],
		[
			"on, one client (singular)",
			{ state: "listening", port: 27150, url: "http://127.0.0.1:27150/mcp" },
			1,
			{ icon: "plug-zap", label: "Vault MCP: on, 1 client in the last minute", short: "MCP on · 1 client", kind: "on" },
		],
		[
			"on, three clients",
			{ state: "listening", port: 27150, url: "http://127.0.0.1:27150/mcp" },
			3,
			{ icon: "plug-zap", label: "Vault MCP: on, 3 clients in the last minute", short: "MCP on · 3 clients", kind: "on" },
		],
		[
			"an error, with its reason in the tooltip only",
			{ state: "error", port: 27150, message: "Port 27150 is already in use." },
			0,
			{ icon: "alert-triangle", label: "Vault MCP: error — Port 27150 is already in use.", short: "MCP error", kind: "error" },
		],
	])("%s", (_name, status, clients, expected) => {
		expect(indicatorState(status, clients)).toEqual(expected);
	});
});
