/**
 * Launches a real OpenArena dedicated server on a loopback address, for tests against a real game.
 */
package dev.reed.testbed.openarena;
