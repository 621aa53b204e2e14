package dev.reed.coordinates.integrity;

import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinates.geo.Place;
import java.util.Locale;

/**
 * Checks one server's landmark RTTs against the mesh ({@link MeshBounds}): O(L^2) additions and
 * comparisons for L landmarks, no allocation but the verdict (and its evidence line when flagged).
 *
 * <p>Classification: with at least {@code minViolatingPairs} violated pairs, a violated pair in
 * which both landmarks see the server within {@code nearShare} of their own distance is the
 * anycast/proxy pattern (near both ends of a long path: the answer comes from near each landmark);
 * violations without it are {@link IntegrityKind#INCONSISTENT}, as are {@code minViolatingPairs}
 * landmarks below the light-in-fibre floor to the server's own known location.
 *
 * <p>The replies ({@link ReplyEvidence}) name what answers: in the pattern's pairs, landmarks that got
 * byte-identical replies more often than different ones see one cached reply served from several
 * places ({@link IntegrityKind#PROXY}), different ones more often several instances
 * ({@link IntegrityKind#ANYCAST}); digests never flag a server on their own. {@code minReplyTells}
 * replies a real server would not send flag it {@link IntegrityKind#PROXY} whatever its RTTs: a proxy
 * beside its game, or one in front of it seen from one place, is consistent with one host.
 */
public final class ServerConsistency {
  private final IntegrityConfig config;
  private final LightBound light;

  public ServerConsistency(IntegrityConfig config) {
    this.config = config;
    this.light = new LightBound(config.lightToleranceMs());
  }

  public IntegrityConfig config() {
    return config;
  }

  /** The mesh bounds for a round (see {@link MeshBounds#of}). */
  public MeshBounds bounds(double[][] meshMs, Place[] landmarkPlaces, String[] landmarkNames) {
    return MeshBounds.of(meshMs, landmarkPlaces, landmarkNames);
  }

  /**
   * The least {@code rtt(a,s) + rtt(b,s)} one host can have (NaN when nothing bounds the pair). The
   * relative slack is for routes through the server that beat the landmarks' own route; a server
   * beside one landmark offers no such route (its path to the other landmark is that landmark's),
   * so the slack shrinks with the server's share of the way, to 0.7 x {@code relativeTolerance} at a
   * landmark (0.5 x gave 0.29 % false alarms on planetlab490 and 0.95 % on seattle99, 0.7 x 0.08 % and
   * 0.48 %, 1 x 0 and 0.24 % but missed proxies 40 ms from two landmarks, docs/research/host-integrity.md).
   */
  private double required(MeshBounds bounds, int a, int b, double da, double db) {
    double mesh = bounds.mesh(a, b);
    double floor = bounds.lightFloor(a, b);
    double need = Double.NEGATIVE_INFINITY;
    if (!Double.isNaN(mesh)) {
      double sum = da + db;
      double share = sum > 0 ? 2 * Math.min(da, db) / sum : 1;
      double rel = config.relativeTolerance() * (0.7 + 0.3 * share);
      need = (1 - rel) * mesh - config.absoluteToleranceMs();
    }
    if (!Double.isNaN(floor)) need = Math.max(need, floor - config.lightToleranceMs());
    return need > 0 ? need : Double.NaN;
  }

  /**
   * @param bounds this round's mesh bounds
   * @param rttMs the server's RTT from each landmark (same order as the mesh; NaN = none), ms
   * @param server the server's known location, or null
   * @param landmarkPlaces each landmark's location (null array or null entries = unknown)
   */
  public IntegrityVerdict check(MeshBounds bounds, double[] rttMs, Place server, Place[] landmarkPlaces) {
    return check(bounds, rttMs, server, landmarkPlaces, ReplyEvidence.NONE);
  }

  /**
   * The same, with what the landmarks' replies say.
   *
   * @param replies tells and digests (digests in the mesh's landmark order)
   */
  public IntegrityVerdict check(MeshBounds bounds, double[] rttMs, Place server, Place[] landmarkPlaces,
      ReplyEvidence replies) {
    int l = bounds.landmarks();
    if (rttMs.length != l) {
      throw new IllegalArgumentException("rttMs has " + rttMs.length + " values for " + l + " landmarks");
    }
    int checked = 0;
    int violating = 0;
    boolean pattern = false;
    double worst = 0;
    int worstA = -1;
    int worstB = -1;
    int same = 0;
    int different = 0;
    for (int a = 0; a < l; a++) {
      double da = rttMs[a];
      if (!(da >= 0)) continue;
      for (int b = a + 1; b < l; b++) {
        double db = rttMs[b];
        if (!(db >= 0)) continue;
        double need = required(bounds, a, b, da, db);
        if (Double.isNaN(need)) continue;
        checked++;
        double sum = da + db;
        if (sum >= need) continue;
        violating++;
        double ref = bounds.reference(a, b);
        double shortfall = ref - sum;
        if (da <= config.nearShare() * ref && db <= config.nearShare() * ref) {
          pattern = true;
          long ga = replies.digest(a);
          long gb = replies.digest(b);
          if (ga != 0 && gb != 0) {
            if (ga == gb) same++;
            else different++;
          }
        }
        if (shortfall > worst) {
          worst = shortfall;
          worstA = a;
          worstB = b;
        }
      }
    }
    int lightViolations = 0;
    if (server != null && landmarkPlaces != null) {
      for (int k = 0; k < l; k++) {
        if (light.contradicts(server, landmarkPlaces[k], rttMs[k])) lightViolations++;
      }
    }
    IntegrityKind kind;
    if (violating >= config.minViolatingPairs()) {
      kind = pattern ? IntegrityKind.ANYCAST_OR_PROXY : IntegrityKind.INCONSISTENT;
    } else if (lightViolations >= config.minViolatingPairs()) {
      kind = IntegrityKind.INCONSISTENT;
    } else {
      kind = IntegrityKind.OK;
    }
    if (kind == IntegrityKind.ANYCAST_OR_PROXY && same != different) {
      kind = same > different ? IntegrityKind.PROXY : IntegrityKind.ANYCAST;
    }
    boolean told = replies.tells() >= config.minReplyTells();
    if (told) kind = IntegrityKind.PROXY;
    StringBuilder evidence = new StringBuilder();
    if (kind != IntegrityKind.OK) {
      if (worstA >= 0) {
        evidence.append(String.format(Locale.ROOT, "%d of %d landmark pairs violated; worst: landmarks %s and %s are %.1f ms"
            + " apart, the server %.1f ms + %.1f ms from them", violating, checked, bounds.name(worstA),
            bounds.name(worstB), bounds.reference(worstA, worstB), rttMs[worstA], rttMs[worstB]));
        if (lightViolations > 0) evidence.append("; ").append(lightViolations).append(" below the light floor to its location");
      } else if (lightViolations > 0) {
        evidence.append(lightViolations).append(" landmarks below the light floor to its location");
      }
      if (same + different > 0) {
        separate(evidence).append(String.format(Locale.ROOT, "landmarks near it got identical replies in %d of %d pairs",
            same, same + different));
      }
      if (told) separate(evidence).append(replies.tells()).append(" replies a real server would not send");
    }
    return new IntegrityVerdict(kind, checked, violating, worst, lightViolations, evidence.toString(), replies.tells(),
        same, different);
  }

  private static StringBuilder separate(StringBuilder b) {
    return b.isEmpty() ? b : b.append("; ");
  }
}
