package dev.reed.coordinates.geo;

/**
 * One pair the fusion weights are fitted on: what each source predicted, out of fold, and what was
 * measured. A source that cannot predict the pair is NaN.
 *
 * @param geoMs the geographic prediction ({@link GeoPrior})
 * @param coordinateMs the coordinate distance
 * @param relayMs Valve's relay bound
 * @param truthMs the measured RTT
 */
public record FusionExample(double geoMs, double coordinateMs, double relayMs, double truthMs) {}
