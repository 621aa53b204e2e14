/**
 * The writer side of the index: {@link dev.reed.coordinator.index.write.IndexFeed} reads the four
 * compacted topics on one thread, keeps every server in {@link
 * dev.reed.coordinator.index.write.FeedServers} (written over in place as coordinates arrive), and
 * publishes a new {@link dev.reed.coordinator.index.read.ServingState} at most every rebuild
 * interval; {@link dev.reed.coordinator.index.write.IndexCheckpoint} is its local copy for restarts.
 * Nothing here is read by a query.
 */
package dev.reed.coordinator.index.write;
