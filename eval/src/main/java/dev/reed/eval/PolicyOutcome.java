package dev.reed.eval;

/**
 * How one auto-stop policy did for one client.
 *
 * @param probes probes including calibration
 * @param foundMeanMs mean RTT of the N_close best servers seen (NaN if none answered)
 * @param foundMedianMs median of the same
 * @param precision share of those that are truly among the N_close nearest (ties count as right)
 * @param playableFound servers found at or under the policy's RTT threshold (RTT_stop policies; else -1)
 * @param playableTotal servers at or under it in truth (else -1)
 */
public record PolicyOutcome(int probes, double foundMeanMs, double foundMedianMs, double precision,
    int playableFound, int playableTotal) {}
