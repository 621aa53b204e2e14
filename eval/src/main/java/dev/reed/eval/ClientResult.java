package dev.reed.eval;

import java.util.Map;

/**
 * One client's outcome.
 *
 * @param client node index
 * @param calibrationProbes probes spent on calibration
 * @param relErrMedian median relative error of the predicted RTTs to all its servers, the client
 *     positioned from every landmark (the accuracy of the coordinate system)
 * @param relErrP90 90th percentile of the same
 * @param spearman rank correlation of predicted and measured RTT over its servers
 * @param precisionAt10 share of the first N_close probed servers that are among the N_close nearest
 * @param optimalMeanMs mean RTT of the true N_close nearest
 * @param allNearestSeen probes (incl. calibration) until all N_close nearest had been probed
 * @param randomAllNearestSeen the same in traditional random order (no calibration)
 * @param servers number of servers in its list
 * @param relErrCalibration median relative error from its calibration probes only
 * @param relErrFinal median relative error from its position after the last re-fit
 * @param relErrServed median relative error of the prediction each server had when the probe order
 *     handed it out (what the client showed as its ping before probing: fused with the location
 *     when the coordinator has one, learned from the replies before it)
 * @param nearestLandmarkMs the client's RTT to its nearest landmark (how well landmarks cover it)
 * @param policies outcome per policy name
 */
public record ClientResult(int client, int calibrationProbes, double relErrMedian, double relErrP90, double spearman,
    double precisionAt10, double optimalMeanMs, int allNearestSeen, int randomAllNearestSeen, int servers,
    double relErrCalibration, double relErrFinal, double relErrServed, double nearestLandmarkMs,
    Map<String, PolicyOutcome> policies) {}
