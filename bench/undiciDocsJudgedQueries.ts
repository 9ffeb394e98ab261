import type { JudgedQuery } from "./judgedQueries";

/**
 * The third held-out judged set: questions a developer new to undici (Node.js's HTTP client) would
 * type over its documentation (`docs/docs/`, 42 Markdown pages: one page per class, `MockAgent.md`,
 * `EnvHttpProxyAgent.md`, a 46 kB `Dispatcher.md` and six best-practice guides), from the npm
 * package undici 7.30.2 (MIT license, by Matteo Collina, Robert Nagy and the undici contributors;
 * repository nodejs/undici), installed from the npm registry into test/unseen-vaults by
 * scripts/test-tools.mjs. Page names are class names written as one camel-case word.
 *
 * Written on 2026-12-03 from each page's title, opening paragraph and headings, before the engine
 * was run on them, and measured once before that day's ranking changes and once after. Nothing was
 * tuned on it: do not tune ranking on these queries, and do not edit them to match what the engine
 * answers. New queries go into a new set.
 */
export const UNDICI_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "undici-docs", query: "make an http request and read the response body", expected: ["api/Dispatcher.md", "api/Fetch.md"] },
	{ vault: "undici-docs", query: "send requests to many different hosts", expected: ["api/Agent.md"] },
	{ vault: "undici-docs", query: "reuse connections to the same server with a connection pool", expected: ["api/Pool.md", "api/RoundRobinPool.md"] },
	{ vault: "undici-docs", query: "spread requests across several upstream servers", expected: ["api/BalancedPool.md", "api/RoundRobinPool.md"] },
	{ vault: "undici-docs", query: "mock http requests in my tests", expected: ["api/MockAgent.md", "best-practices/mocking-request.md"] },
	{ vault: "undici-docs", query: "check that every mocked request was called", expected: ["api/MockAgent.md"] },
	{ vault: "undici-docs", query: "block real network calls while testing", expected: ["api/MockAgent.md", "best-practices/mocking-request.md"] },
	{ vault: "undici-docs", query: "record real responses and replay them in tests", expected: ["api/SnapshotAgent.md"] },
	{
		vault: "undici-docs",
		query: "see which requests were made to the mock",
		expected: ["api/MockCallHistory.md", "api/MockCallHistoryLog.md", "best-practices/mocking-request.md"],
	},
	{ vault: "undici-docs", query: "mock a single client instead of an agent", expected: ["api/MockClient.md"] },
	{ vault: "undici-docs", query: "errors thrown by the mocking utilities", expected: ["api/MockErrors.md"] },
	{ vault: "undici-docs", query: "go through a corporate proxy", expected: ["api/ProxyAgent.md", "best-practices/proxy.md"] },
	{ vault: "undici-docs", query: "use the proxy from the HTTP_PROXY environment variable", expected: ["api/EnvHttpProxyAgent.md"] },
	{ vault: "undici-docs", query: "route requests through a socks proxy", expected: ["api/Socks5ProxyAgent.md"] },
	{ vault: "undici-docs", query: "retry a request automatically when it fails", expected: ["api/RetryAgent.md", "api/RetryHandler.md"] },
	{ vault: "undici-docs", query: "follow redirects", expected: ["api/RedirectHandler.md", "api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "timeout while waiting for the response headers", expected: ["api/Client.md", "api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "list of error codes", expected: ["api/Errors.md"] },
	{ vault: "undici-docs", query: "what does UND_ERR_SOCKET mean", expected: ["api/Errors.md"] },
	{ vault: "undici-docs", query: "cache http responses", expected: ["api/CacheStore.md", "api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "keep the cache in sqlite", expected: ["api/CacheStore.md"] },
	{ vault: "undici-docs", query: "open a websocket connection", expected: ["api/WebSocket.md"] },
	{ vault: "undici-docs", query: "send a ping over a websocket", expected: ["api/WebSocket.md"] },
	{ vault: "undici-docs", query: "receive server sent events", expected: ["api/EventSource.md"] },
	{ vault: "undici-docs", query: "read cookies from the response headers", expected: ["api/Cookies.md"] },
	{ vault: "undici-docs", query: "parse a mime type", expected: ["api/ContentType.md"] },
	{ vault: "undici-docs", query: "turn on debug output", expected: ["api/Debug.md"] },
	{ vault: "undici-docs", query: "trace requests with diagnostics channel", expected: ["api/DiagnosticsChannel.md"] },
	{ vault: "undici-docs", query: "make fetch and FormData available globally", expected: ["api/GlobalInstallation.md"] },
	{ vault: "undici-docs", query: "do I need undici or is the fetch built into node enough", expected: ["best-practices/undici-vs-builtin-fetch.md"] },
	{ vault: "undici-docs", query: "authenticate with a client certificate", expected: ["best-practices/client-certificate.md"] },
	{ vault: "undici-docs", query: "set a user agent when crawling websites", expected: ["best-practices/crawling.md"] },
	{ vault: "undici-docs", query: "my tests hang because the socket stays open", expected: ["best-practices/writing-tests.md"] },
	{ vault: "undici-docs", query: "http2 without tls", expected: ["api/H2CClient.md"] },
	{ vault: "undici-docs", query: "check the server certificate fingerprint", expected: ["api/Connector.md"] },
	{ vault: "undici-docs", query: "states a client goes through from connecting to closed", expected: ["api/api-lifecycle.md"] },
	{ vault: "undici-docs", query: "how many requests are queued in a pool", expected: ["api/PoolStats.md"] },
	{ vault: "undici-docs", query: "number of running requests on a client", expected: ["api/ClientStats.md"] },
	{ vault: "undici-docs", query: "stream the response into a writable stream", expected: ["api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "add an interceptor to every request", expected: ["api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "decompress gzip responses", expected: ["api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "cancel a request that is in flight", expected: ["api/Dispatcher.md"] },
	{ vault: "undici-docs", query: "close the client after pending requests finish", expected: ["api/Dispatcher.md", "api/Client.md"] },
	{ vault: "undici-docs", query: "enable pipelining", expected: ["api/Client.md"] },
	{ vault: "undici-docs", query: "limit how big a response can be", expected: ["api/Client.md"] },
	{ vault: "undici-docs", query: "upload a file with multipart form data", expected: ["api/Fetch.md", "api/GlobalInstallation.md"] },
	{ vault: "undici-docs", query: "parse raw headers into an object", expected: ["api/Util.md"] },
	{ vault: "undici-docs", query: "cache dns lookups", expected: ["api/Dispatcher.md"] },
];
