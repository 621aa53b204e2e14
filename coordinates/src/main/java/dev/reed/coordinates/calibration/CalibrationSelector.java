package dev.reed.coordinates.calibration;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Chooses the calibration set of REED Algorithm 3 (Armitage &amp; Heyde 2011): N_calib servers with
 * known, accurate coordinates that a client probes first to position itself.
 *
 * <p>Accuracy: only candidates fitted from at least D+1 landmarks with a relative error at most
 * {@link CoordinateConfig#calibrationMaxError()} are eligible; if fewer than {@code count} are, the
 * most accurate ones fill up. Spread: farthest-point selection (Gonzalez 1985) in coordinate space,
 * so the client's calibration RTTs constrain every direction (clustered calibration servers leave
 * the client's position ill-determined, as clustered GNP landmarks do). Rotation: each epoch draws
 * a different random half of the eligible pool (deterministic in the epoch, so every coordinator
 * replica hands out the same set) and starts the farthest-point walk from a different server, so
 * no single server carries all the calibration traffic.
 */
public final class CalibrationSelector {

  private final CoordinateConfig config;

  public CalibrationSelector(CoordinateConfig config) {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    this.config = config;
  }

  /**
   * @param count N_calib; must be &gt;= D+1
   * @param rotationEpoch any long (e.g. the round number or hour); the same epoch gives the same set
   * @return at most {@code count} candidates (fewer only if fewer were given), no duplicates
   * @throws IllegalArgumentException count &lt; D+1, null or mixed-dimension candidates
   */
  public List<CalibrationCandidate> select(List<CalibrationCandidate> candidates, int count, long rotationEpoch) {
    int d = config.dimensions();
    if (count < d + 1) {
      throw new IllegalArgumentException("calibration count must be >= D+1 = " + (d + 1) + ", got " + count);
    }
    if (candidates == null) {
      throw new IllegalArgumentException("candidates must not be null");
    }
    List<CalibrationCandidate> eligible = new ArrayList<>();
    List<CalibrationCandidate> rest = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (CalibrationCandidate c : candidates) {
      if (c == null) {
        throw new IllegalArgumentException("candidate must not be null");
      }
      if (c.coordinate().dimensions() != d) {
        throw new IllegalArgumentException("dimension mismatch: candidate " + c.key() + " has "
            + c.coordinate().dimensions() + " dimensions, config " + d);
      }
      if (!seen.add(c.key())) {
        continue;
      }
      if (c.anchorsUsed() >= d + 1 && c.relativeError() <= config.calibrationMaxError()) {
        eligible.add(c);
      } else {
        rest.add(c);
      }
    }
    if (eligible.size() < count) {
      rest.sort(Comparator.comparingDouble(CalibrationCandidate::relativeError)
          .thenComparing(CalibrationCandidate::key));
      for (CalibrationCandidate c : rest) {
        if (eligible.size() >= count) {
          break;
        }
        eligible.add(c);
      }
      return farthestPoints(eligible, count, rotationEpoch);
    }
    eligible.sort(Comparator.comparing(CalibrationCandidate::key)); // input order must not matter
    SplittableRandom rnd = new SplittableRandom(rotationEpoch * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
    List<CalibrationCandidate> pool = eligible;
    if (eligible.size() >= 4 * count) {
      pool = new ArrayList<>(eligible.size() / 2 + 1);
      for (CalibrationCandidate c : eligible) {
        if (rnd.nextBoolean()) {
          pool.add(c);
        }
      }
      if (pool.size() < count) {
        pool = eligible;
      }
    }
    return farthestPoints(pool, count, rnd.nextLong());
  }

  /**
   * The second phase of a two-phase calibration (beyond the paper): after probing a spread set
   * ({@link #select}) and positioning itself, a client probes the candidates nearest to that
   * position. Near calibration points fix the client's position relative to its neighbourhood,
   * which is what ordering its nearest servers needs; distant ones mostly re-measure the continent.
   * On planetlab490 with 15 landmarks, 5 spread + 5 nearest calibrated as well as all 15 for the
   * first page and saved 5 probes (docs/research/calibration.md).
   *
   * @param position the client's position from the calibration so far
   * @param count how many to return (fewer if fewer remain)
   * @param exclude keys already probed
   * @return the {@code count} candidates nearest to {@code position} not in {@code exclude}, nearest
   *     first (ties by key)
   */
  public List<CalibrationCandidate> nearest(List<CalibrationCandidate> candidates, Coordinate position, int count,
      java.util.Set<String> exclude) {
    if (candidates == null || position == null || exclude == null || count < 0) {
      throw new IllegalArgumentException("candidates, position and exclude are required and count must be >= 0");
    }
    if (position.dimensions() != config.dimensions()) {
      throw new IllegalArgumentException("position has " + position.dimensions() + " dimensions, config "
          + config.dimensions());
    }
    return candidates.stream()
        .filter(c -> !exclude.contains(c.key()) && c.coordinate().dimensions() == config.dimensions())
        .sorted(Comparator.comparingDouble((CalibrationCandidate c) -> position.distanceTo(c.coordinate()))
            .thenComparing(CalibrationCandidate::key))
        .distinct()
        .limit(count)
        .toList();
  }

  private static List<CalibrationCandidate> farthestPoints(List<CalibrationCandidate> pool, int count, long seed) {
    int m = pool.size();
    if (m <= count) {
      return List.copyOf(pool);
    }
    List<CalibrationCandidate> out = new ArrayList<>(count);
    double[] minDist = new double[m];
    java.util.Arrays.fill(minDist, Double.POSITIVE_INFINITY);
    boolean[] taken = new boolean[m];
    int cur = (int) Math.floorMod(seed, (long) m);
    for (int k = 0; k < count; k++) {
      taken[cur] = true;
      out.add(pool.get(cur));
      Coordinate cc = pool.get(cur).coordinate();
      int next = -1;
      double far = -1;
      for (int i = 0; i < m; i++) {
        if (taken[i]) {
          continue;
        }
        minDist[i] = Math.min(minDist[i], cc.distanceTo(pool.get(i).coordinate()));
        if (minDist[i] > far) {
          far = minDist[i];
          next = i;
        }
      }
      if (next < 0) {
        break;
      }
      cur = next;
    }
    return List.copyOf(out);
  }
}
