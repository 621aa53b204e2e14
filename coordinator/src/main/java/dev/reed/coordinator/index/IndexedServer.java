package dev.reed.coordinator.index;

import dev.reed.coordinates.ranking.ServerEntry;

/**
 * What the index feed holds per server, in one map entry: every replica holds one per server of
 * the deployment, and three maps (template, rest, entry) cost two more hash nodes and table slots a
 * server than one.
 *
 * @param template what a ranking returns about the server but the predicted RTT
 * @param rest the coordinate's fields the template lacks, encoded ({@link ServerCoordinates#rest})
 * @param entry the server in the ranking index
 */
record IndexedServer(RankedTemplate template, byte[] rest, ServerEntry entry) {}
