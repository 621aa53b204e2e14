/**
 * The UDP probe engine: measures game-server RTTs with the queries a server browser sends (A2S and
 * Quake3), under a global probes-per-second budget, with per-target timeouts and counters.
 */
package dev.reed.probe;
