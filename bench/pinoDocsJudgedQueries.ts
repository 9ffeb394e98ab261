import type { JudgedQuery } from "./judgedQueries";

/**
 * The seventh held-out judged set: questions a developer new to pino (a JSON logger for Node.js)
 * would type over its guide and reference pages (`docs/`, 14 Markdown pages: one long API
 * reference, `api.md`, with a heading per option and method; guides on transports, child loggers,
 * redaction, pretty printing, asynchronous logging, bundling, browser use, web frameworks; a `help.md`
 * of how-to sections; support policy, benchmarks, ecosystem, diagnostics), from the npm package
 * pino 10.4.0 (MIT license, by Matteo Collina, David Mark Clements and the pino contributors;
 * repository pinojs/pino), installed from the npm registry into test/unseen-vaults by
 * scripts/test-tools.mjs. A different genre from the rule-page sets: few pages, some long, many
 * sections each. A question expects the page a person would open for it; two pages when two answer
 * it alike (a `help.md` section and the guide or reference it points to).
 *
 * Written on 2026-12-03 from each page's headings and opening paragraphs, in a developer's own words,
 * before the engine was run on them; measured on that day's main (0.917 / 0.862) and after that day's
 * ranking changes (0.917 / 0.865). Its misses were not read while ranking changed; after the last
 * change, the bench's `--only common` (which runs the judged sets first) printed the four queries it
 * misses into a latency run's output once, and they were seen. Nothing was tuned on it: do not tune
 * ranking on these queries, and do not edit them to match what the engine answers. New queries go
 * into a new set.
 */
export const PINO_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "pino-docs", query: "add a custom log level called audit", expected: ["api.md"] },
	{ vault: "pino-docs", query: "change the timestamp format to ISO time", expected: ["api.md"] },
	{ vault: "pino-docs", query: "rename the msg key in the JSON output", expected: ["api.md"] },
	{ vault: "pino-docs", query: "remove pid and hostname from every log line", expected: ["api.md"] },
	{ vault: "pino-docs", query: "log an Error object with its stack trace", expected: ["api.md"] },
	{ vault: "pino-docs", query: "change the log level at runtime", expected: ["api.md"] },
	{ vault: "pino-docs", query: "check whether debug is enabled before building an expensive message", expected: ["api.md"] },
	{ vault: "pino-docs", query: "add a request id to every log line automatically", expected: ["api.md", "child-loggers.md"] },
	{ vault: "pino-docs", query: "printf style placeholders like %s in the message", expected: ["api.md"] },
	{ vault: "pino-docs", query: "TypeScript types for extra fields on log methods", expected: ["api.md"] },
	{ vault: "pino-docs", query: "buffer log writes for better throughput", expected: ["asynchronous.md"] },
	{ vault: "pino-docs", query: "logs lost when the process exits before they are flushed", expected: ["asynchronous.md", "api.md"] },
	{ vault: "pino-docs", query: "logging from an AWS Lambda function", expected: ["asynchronous.md"] },
	{ vault: "pino-docs", query: "how fast is pino compared to winston and bunyan", expected: ["benchmarks.md"] },
	{ vault: "pino-docs", query: "use pino in the browser", expected: ["browser.md"] },
	{ vault: "pino-docs", query: "send browser logs to a server endpoint", expected: ["browser.md"] },
	{ vault: "pino-docs", query: "print log objects instead of strings in the browser console", expected: ["browser.md"] },
	{ vault: "pino-docs", query: "bundle pino with webpack or esbuild", expected: ["bundling.md"] },
	{ vault: "pino-docs", query: "worker.js file missing after bundling my app", expected: ["bundling.md"] },
	{ vault: "pino-docs", query: "add the module name to every log line from one file", expected: ["child-loggers.md"] },
	{ vault: "pino-docs", query: "is creating a child logger expensive", expected: ["child-loggers.md"] },
	{ vault: "pino-docs", query: "same key set by the child logger and by the log call", expected: ["child-loggers.md", "help.md"] },
	{ vault: "pino-docs", query: "tracing channel events emitted during serialization", expected: ["diagnostics.md"] },
	{ vault: "pino-docs", query: "list of modules and plugins that work with pino", expected: ["ecosystem.md"] },
	{ vault: "pino-docs", query: "community packages built around pino", expected: ["ecosystem.md"] },
	{ vault: "pino-docs", query: "rotate log files daily", expected: ["help.md"] },
	{ vault: "pino-docs", query: "reopen the log file after logrotate moves it", expected: ["help.md"] },
	{ vault: "pino-docs", query: "show level names like info instead of the number 30", expected: ["help.md", "api.md"] },
	{ vault: "pino-docs", query: "map log levels to Google Cloud severity", expected: ["help.md"] },
	{ vault: "pino-docs", query: "write errors to stderr and everything else to stdout", expected: ["help.md", "api.md"] },
	{ vault: "pino-docs", query: "how do I test what my code logs", expected: ["help.md"] },
	{ vault: "pino-docs", query: "emoji look broken in the Windows terminal", expected: ["help.md"] },
	{ vault: "pino-docs", query: "send logs to Grafana Loki from kubernetes", expected: ["help.md", "transports.md"] },
	{ vault: "pino-docs", query: "switching from the debug module", expected: ["help.md"] },
	{ vault: "pino-docs", query: "which Node.js versions are supported", expected: ["lts.md"] },
	{ vault: "pino-docs", query: "how long does a major version get security fixes", expected: ["lts.md"] },
	{ vault: "pino-docs", query: "human readable colored output during development", expected: ["pretty.md"] },
	{ vault: "pino-docs", query: "set up pino-pretty", expected: ["pretty.md"] },
	{ vault: "pino-docs", query: "hide passwords and tokens from logs", expected: ["redaction.md"] },
	{ vault: "pino-docs", query: "redact a header with a hyphen in its name", expected: ["redaction.md"] },
	{ vault: "pino-docs", query: "does redaction slow down logging", expected: ["redaction.md"] },
	{ vault: "pino-docs", query: "write my own transport", expected: ["transports.md"] },
	{ vault: "pino-docs", query: "ship logs to Elasticsearch", expected: ["transports.md"] },
	{ vault: "pino-docs", query: "process logs in a worker thread", expected: ["transports.md"] },
	{ vault: "pino-docs", query: "send different levels to different transports", expected: ["transports.md"] },
	{ vault: "pino-docs", query: "request logging with Express", expected: ["web.md"] },
	{ vault: "pino-docs", query: "use pino with Fastify", expected: ["web.md"] },
	{ vault: "pino-docs", query: "log every request in a plain node http server", expected: ["web.md"] },
];
