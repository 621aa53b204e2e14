/**
 * Snapshot files for analysts: the served index written periodically as a CSV (one row per
 * server) and a JSON summary, the newest generations kept.
 */
package dev.reed.coordinator.snapshot;
