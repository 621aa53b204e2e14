package dev.reed.cli.demo;

/**
 * One measurement round of the demo: what the landmarks measured and how well the coordinator's
 * coordinates fit afterwards.
 *
 * @param round 1-based round with targets
 * @param agentRound the landmarks' own round number (mesh-only rounds included)
 * @param targets targets probed per landmark
 * @param replies target replies over all landmarks
 * @param timeouts targets that did not answer (after one retry) over all landmarks
 * @param measureSeconds wall time of the landmarks' round, publishing included
 * @param positioned servers whose coordinate includes this round
 * @param medianFitError median over servers of the relative error of their fit to the landmarks
 * @param p90FitError 90th percentile of the same
 * @param medianPairError median relative error of the predicted RTT between random pairs of
 *     servers, against the world's true RTT: pairs no landmark ever measured, so this is the
 *     prediction accuracy a client relies on
 * @param delayError the emulation's delay error over the round's answered landmark probes
 * @param seconds wall time of the whole round, coordinator included
 */
record RoundFigures(int round, long agentRound, int targets, long replies, long timeouts, double measureSeconds,
    int positioned, double medianFitError, double p90FitError, double medianPairError, DelayError delayError, double seconds) {}
