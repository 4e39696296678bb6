// Loaded into every unit-test process (--import): the CLI commands and MCP servers the suites start
// answer in their own processes, with no repository service left running after them. The service's
// own suite (service.test.ts) turns it back on for the services it starts and stops.
process.env.CARTOGRAPH_NO_SERVICE ??= '1';
