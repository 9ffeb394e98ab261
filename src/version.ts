/** The plugin and server version; test/unit/version.test.ts keeps it equal to package.json and manifest.json. */
export const VERSION = "0.1.0";
