package dev.reed.coordinates.ranking;

/** A server and its predicted RTT from the querying client (ms). */
public record Ranked(ServerEntry server, double predictedMs) {}
