/**
 * Computing coordinates each round: the leader embeds the landmarks from the mesh windows, every
 * replica positions the targets it owns against that embedding and publishes them.
 */
package dev.reed.coordinator.position;
