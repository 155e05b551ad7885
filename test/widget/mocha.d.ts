// The widget tests run in Mocha (through @web/test-runner), which provides describe/it/afterEach as globals.
/// <reference types="mocha" />
