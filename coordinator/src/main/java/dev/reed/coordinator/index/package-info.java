/**
 * The coordinate index every replica serves from, by role: {@link
 * dev.reed.coordinator.index.write} reads the compacted coordinate, landmark and target topics and
 * publishes a new version; {@link dev.reed.coordinator.index.read} is that version, one immutable
 * {@link dev.reed.coordinator.index.read.ServingState} that queries read through a single
 * reference; {@link dev.reed.coordinator.index.store} keeps the per-server bytes both sides share.
 * {@link dev.reed.coordinator.index.CoordinateCodec} converts and validates coordinates at every
 * boundary.
 */
package dev.reed.coordinator.index;
