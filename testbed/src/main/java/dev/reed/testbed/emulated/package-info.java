/**
 * Thousands of emulated A2S/Quake3 game servers in one JVM, each at its own loopback address with
 * the world's latency, and the harness that measures their delay accuracy.
 */
package dev.reed.testbed.emulated;
