/**
 * The read-only side of the index: one published version, {@link
 * dev.reed.coordinator.index.read.ServingState}, and what it is made of: each server's pre-encoded
 * ranked bytes ({@link dev.reed.coordinator.index.read.RankedTemplate}), the state's servers by
 * index position and by key ({@link dev.reed.coordinator.index.read.StateServers}), and their
 * coordinates rebuilt from the templates on read. Nothing here changes once built, so queries read
 * it without a lock while the writer builds the next one.
 */
package dev.reed.coordinator.index.read;
