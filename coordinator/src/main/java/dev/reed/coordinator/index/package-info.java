/**
 * The coordinate index every replica serves from: reads the compacted coordinate, landmark and
 * target topics into one immutable {@link dev.reed.coordinator.index.ServingState} that queries
 * read through a single reference.
 */
package dev.reed.coordinator.index;
