package dev.reed.client;

/**
 * How a client's measurement reports fared ({@link ReedClient.Builder#reportMeasurements}).
 *
 * @param reported reports the coordinator took
 * @param failed reports that could not be sent or were refused (logged once at INFO, then at DEBUG)
 * @param serversAccepted server measurements (RTTs and timeouts) the coordinator accepted in them
 */
public record ReportStats(long reported, long failed, long serversAccepted) {}
