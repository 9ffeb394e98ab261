import type { JudgedQuery } from "./judgedQueries";

/**
 * The second held-out judged set: questions a developer new to Fastify would type over its
 * documentation (`docs/`, 42 Markdown pages: long reference pages such as `Reference/Server.md`
 * and prose guides), from the npm package fastify 5.12.8 (MIT license, by Matteo Collina, Tomas
 * Della Vedova and the Fastify contributors), installed from the npm registry into
 * test/unseen-vaults by scripts/test-tools.mjs. Few, long pages full of camel-case option names
 * (`bodyLimit`, `setNotFoundHandler`): a kind of vault none of the other sets has.
 *
 * Written on 2026-12-02 from each page's headings and opening paragraphs, before the engine was run
 * on them, and measured once before the ranking changes of that day and once after. Nothing was
 * tuned on it: do not tune ranking on these queries, and do not edit them to match what the engine
 * answers. New queries go into a new set.
 */
export const FASTIFY_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "fastify-docs", query: "how do I install fastify and start my first server", expected: ["Guides/Getting-Started.md"] },
	{ vault: "fastify-docs", query: "register a plugin", expected: ["Reference/Plugins.md", "Guides/Plugins-Guide.md"] },
	{ vault: "fastify-docs", query: "add a custom property to the request object", expected: ["Reference/Decorators.md"] },
	{ vault: "fastify-docs", query: "decorate the reply with a helper function", expected: ["Reference/Decorators.md"] },
	{ vault: "fastify-docs", query: "run code before every request handler", expected: ["Reference/Hooks.md"] },
	{ vault: "fastify-docs", query: "in which order do the hooks run during a request", expected: ["Reference/Lifecycle.md", "Reference/Hooks.md"] },
	{ vault: "fastify-docs", query: "validate the request body with a JSON schema", expected: ["Reference/Validation-and-Serialization.md"] },
	{ vault: "fastify-docs", query: "faster JSON responses with a response schema", expected: ["Reference/Validation-and-Serialization.md"] },
	{ vault: "fastify-docs", query: "set the status code of a response", expected: ["Reference/Reply.md"] },
	{ vault: "fastify-docs", query: "redirect to another URL", expected: ["Reference/Reply.md"] },
	{ vault: "fastify-docs", query: "set a header on the response", expected: ["Reference/Reply.md"] },
	{ vault: "fastify-docs", query: "send a stream as the response", expected: ["Reference/Reply.md"] },
	{ vault: "fastify-docs", query: "read query string parameters", expected: ["Reference/Request.md"] },
	{ vault: "fastify-docs", query: "get the client IP address behind a proxy", expected: ["Reference/Request.md", "Reference/Server.md"] },
	{ vault: "fastify-docs", query: "custom handler for routes that are not found", expected: ["Reference/Server.md"] },
	{ vault: "fastify-docs", query: "set a custom error handler", expected: ["Reference/Server.md", "Reference/Errors.md"] },
	{ vault: "fastify-docs", query: "list of fastify error codes", expected: ["Reference/Errors.md"] },
	{ vault: "fastify-docs", query: "limit the maximum size of the request body", expected: ["Reference/Server.md"] },
	{ vault: "fastify-docs", query: "request timeout", expected: ["Reference/Server.md"] },
	{ vault: "fastify-docs", query: "ignore a trailing slash in urls", expected: ["Reference/Server.md", "Reference/Routes.md"] },
	{ vault: "fastify-docs", query: "print all registered routes", expected: ["Reference/Server.md"] },
	{ vault: "fastify-docs", query: "generate a request id for each request", expected: ["Reference/Server.md", "Reference/Logging.md"] },
	{
		vault: "fastify-docs",
		query: "close the server gracefully on shutdown",
		expected: ["Reference/Server.md", "Reference/Lifecycle.md", "Reference/Hooks.md"],
	},
	{ vault: "fastify-docs", query: "test routes without starting the server", expected: ["Guides/Testing.md"] },
	{ vault: "fastify-docs", query: "use express middleware", expected: ["Reference/Middleware.md"] },
	{ vault: "fastify-docs", query: "enable http2", expected: ["Reference/HTTP2.md"] },
	{ vault: "fastify-docs", query: "serve over https with a certificate", expected: ["Reference/Server.md", "Reference/HTTP2.md"] },
	{ vault: "fastify-docs", query: "turn on logging", expected: ["Reference/Logging.md"] },
	{ vault: "fastify-docs", query: "hide passwords in the logs", expected: ["Reference/Logging.md"] },
	{ vault: "fastify-docs", query: "add a prefix to all routes of a plugin", expected: ["Reference/Routes.md", "Reference/Plugins.md"] },
	{ vault: "fastify-docs", query: "serve different versions of the same route", expected: ["Reference/Routes.md"] },
	{ vault: "fastify-docs", query: "parse xml request bodies", expected: ["Reference/ContentTypeParser.md"] },
	{ vault: "fastify-docs", query: "accept a content type fastify does not support", expected: ["Reference/ContentTypeParser.md"] },
	{ vault: "fastify-docs", query: "typescript types for the request body", expected: ["Reference/TypeScript.md", "Reference/Type-Providers.md"] },
	{ vault: "fastify-docs", query: "infer types from schemas with zod or typebox", expected: ["Reference/Type-Providers.md"] },
	{ vault: "fastify-docs", query: "upgrade from fastify 4 to 5", expected: ["Guides/Migration-Guide-V5.md"] },
	{ vault: "fastify-docs", query: "breaking changes in version 4", expected: ["Guides/Migration-Guide-V4.md"] },
	{ vault: "fastify-docs", query: "how long is each major version supported", expected: ["Reference/LTS.md"] },
	{ vault: "fastify-docs", query: "deploy on aws lambda", expected: ["Guides/Serverless.md"] },
	{ vault: "fastify-docs", query: "run fastify on google cloud run", expected: ["Guides/Serverless.md"] },
	{ vault: "fastify-docs", query: "connect to a postgres database", expected: ["Guides/Database.md"] },
	{ vault: "fastify-docs", query: "put nginx in front of the server", expected: ["Guides/Recommendations.md"] },
	{ vault: "fastify-docs", query: "run several instances on one machine", expected: ["Guides/Recommendations.md"] },
	{ vault: "fastify-docs", query: "detect when the client closes the connection", expected: ["Guides/Detecting-When-Clients-Abort.md"] },
	{ vault: "fastify-docs", query: "wait until the database is ready before accepting requests", expected: ["Guides/Delay-Accepting-Requests.md"] },
	{ vault: "fastify-docs", query: "what is prototype poisoning", expected: ["Guides/Prototype-Poisoning.md"] },
	{ vault: "fastify-docs", query: "why is my decorator not visible in another plugin", expected: ["Reference/Encapsulation.md", "Guides/Plugins-Guide.md"] },
	{ vault: "fastify-docs", query: "list of community plugins", expected: ["Guides/Ecosystem.md"] },
	{ vault: "fastify-docs", query: "build schemas with a fluent api", expected: ["Guides/Fluent-Schema.md"] },
	{ vault: "fastify-docs", query: "benchmark my changes against the main branch", expected: ["Guides/Benchmarking.md"] },
	{ vault: "fastify-docs", query: "guidelines for writing a good plugin", expected: ["Guides/Write-Plugin.md"] },
	{ vault: "fastify-docs", query: "deprecation warnings", expected: ["Reference/Warnings.md"] },
	{ vault: "fastify-docs", query: "style guide for writing the documentation", expected: ["Guides/Style-Guide.md"] },
	{ vault: "fastify-docs", query: "design principles of the framework", expected: ["Reference/Principles.md"] },
];
