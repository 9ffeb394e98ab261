/** Jest runs the TypeScript sources through ts-jest; `obsidian` is mapped to the host double. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
    // The built plugin bundle, with its source map (main.js names none): failures point at src/.
    "^.+[\\\\/]main\\.js$": "<rootDir>/scripts/jest-bundle-source-map.mjs",
  },
  moduleNameMapper: {
    "^obsidian$": "<rootDir>/test/double/obsidian.ts",
  },
  testTimeout: 30000,
  // Stops the run with one line when the golden data (kept outside the repository) is missing, and
  // holds the default port for the run, as a person's running server would.
  globalSetup: "<rootDir>/test/globalSetup.ts",
  globalTeardown: "<rootDir>/test/globalTeardown.ts",
};
