package dev.reed.coordinates.integrity;

import dev.reed.coordinates.ModelFile;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Every tolerance of the host integrity check, with defaults tuned on the measured matrices
 * (planetlab490, seattle99, azure54; every non-landmark node a server, docs/research/host-integrity.md).
 *
 * <p>A landmark pair (a, b) is violated by server s when {@code rtt(a,s) + rtt(b,s)} is below
 * {@code (1 - relativeTolerance) * mesh(a,b) - absoluteToleranceMs}, where {@code mesh(a,b)} is the
 * shortest path between the two landmarks through the mesh (the mesh's own triangle-inequality
 * violations taken out first), or below the light-in-fibre floor between their known locations by
 * more than {@code lightToleranceMs}.
 *
 * @param absoluteToleranceMs slack for clock granularity, queueing at the server and short detours
 *     (default 10 ms)
 * @param relativeTolerance slack as a share of the mesh RTT: real Internet paths violate the
 *     triangle inequality, 5.7 % of planetlab490's triangles do, a hub beside a server can shortcut a
 *     long route between two landmarks (default 0.5 for a server half-way; it shrinks to 0.35 for a
 *     server beside one of the two landmarks, whose route to the other is that landmark's own, see
 *     {@link ServerConsistency})
 * @param nearShare the anycast/proxy pattern: in a violated pair, both landmarks see the server
 *     within this share of their own RTT (default 0.35: near both ends of a long path; a query proxy
 *     1 ms from Frankfurt in front of a game in Dallas is 36 ms from a New York landmark 130 ms from
 *     Frankfurt, 0.27 of it)
 * @param minViolatingPairs pairs (or light contradictions) needed before a server is flagged
 *     (default 2: one noisy landmark path alone never flags)
 * @param lightToleranceMs slack on the light-in-fibre floor (default 5 ms, as
 *     {@link dev.reed.coordinates.geo.LightBound}: 500 km of location error)
 * @param minReplyTells samples in the landmarks' windows whose reply a real server would not send
 *     (a stale echoed challenge, an A2S info answered to a forged challenge) before a server is
 *     flagged PROXY on them (default 2: a single late reply to an earlier probe, the one honest cause
 *     of a stale echo, never flags)
 */
public record IntegrityConfig(double absoluteToleranceMs, double relativeTolerance, double nearShare,
    int minViolatingPairs, double lightToleranceMs, int minReplyTells) {

  public IntegrityConfig {
    if (!(absoluteToleranceMs >= 0) || !(relativeTolerance >= 0 && relativeTolerance < 1)
        || !(nearShare > 0 && nearShare <= 1) || minViolatingPairs < 1 || !(lightToleranceMs >= 0)
        || Double.isInfinite(absoluteToleranceMs) || Double.isInfinite(lightToleranceMs) || minReplyTells < 1) {
      throw new IllegalArgumentException("need finite absoluteToleranceMs >= 0, 0 <= relativeTolerance < 1, "
          + "0 < nearShare <= 1, minViolatingPairs >= 1, finite lightToleranceMs >= 0, minReplyTells >= 1; got " + this);
    }
  }

  /** The settings of the RTT check alone, with the default {@code minReplyTells}. */
  public IntegrityConfig(double absoluteToleranceMs, double relativeTolerance, double nearShare, int minViolatingPairs,
      double lightToleranceMs) {
    this(absoluteToleranceMs, relativeTolerance, nearShare, minViolatingPairs, lightToleranceMs, 2);
  }

  /** The documented defaults. */
  public static IntegrityConfig defaults() {
    return new IntegrityConfig(10, 0.5, 0.35, 2, 5, 2);
  }

  /**
   * Reads a settings file ({@code --integrity-config}): Java properties whose keys are this
   * record's component names; keys not given keep {@link #defaults()}.
   *
   * @throws IllegalArgumentException naming the file and the key of an unknown key or bad value,
   *     or a missing file
   */
  public static IntegrityConfig load(Path file) {
    return ModelFile.load(file, IntegrityConfig.class, defaults());
  }

  /** These settings with some replaced by component name ({@code relativeTolerance -> 0.3}). */
  public IntegrityConfig with(Map<String, String> changes) {
    return ModelFile.with(this, changes);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "abs=%.1fms rel=%.2f near=%.2f minPairs=%d light=%.1fms minTells=%d",
        absoluteToleranceMs, relativeTolerance, nearShare, minViolatingPairs, lightToleranceMs, minReplyTells);
  }
}
