package dev.reed.coordinator.position;

import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.integrity.IntegrityVerdict;
import dev.reed.coordinates.integrity.MeshBounds;
import dev.reed.coordinates.integrity.ReplyEvidence;
import dev.reed.coordinates.integrity.ServerConsistency;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.ServerIntegrity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The host integrity check as a positioning round runs it: the mesh bounds once per
 * round, in the order of the positioning anchors, then one O(L^2) check per fitted server from the
 * same window minima its coordinate is fitted from. Landmarks' announced locations add the
 * light-in-fibre floor between them, except locations the mesh itself contradicts
 * ({@link LightBound#contradicted(Place[], double[][])}: a landmark announcing the wrong city must
 * not flag every server).
 */
public final class HostIntegrity {
  private final ServerConsistency check;

  public HostIntegrity(ServerConsistency check) {
    this.check = check;
  }

  /** This round's bounds over the anchors ({@code ids}, in anchor order); null without a mesh. */
  MeshBounds bounds(List<String> ids, MeshWindows.Mesh mesh, Map<String, Landmark> announcements) {
    if (mesh == null || mesh.landmarkIds().size() < 2) return null;
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < mesh.landmarkIds().size(); i++) at.put(mesh.landmarkIds().get(i), i);
    int l = ids.size();
    double[][] d = new double[l][l];
    Place[] places = new Place[l];
    for (int a = 0; a < l; a++) {
      Integer ia = at.get(ids.get(a));
      for (int b = 0; b < l; b++) {
        Integer ib = at.get(ids.get(b));
        d[a][b] = a == b ? 0 : ia == null || ib == null ? Double.NaN : mesh.rttMs()[ia][ib];
      }
      Landmark announced = announcements.get(ids.get(a));
      if (announced != null && announced.hasLocation()) {
        try {
          places[a] = Place.of(announced.getLocation().getLatitudeDeg(), announced.getLocation().getLongitudeDeg());
        } catch (IllegalArgumentException e) {
          places[a] = null; // out of range: counted by the geo training, ignored here
        }
      }
    }
    boolean[] contradicted = LightBound.defaults().contradicted(places, d);
    for (int a = 0; a < l; a++) {
      if (contradicted[a]) places[a] = null;
    }
    return check.bounds(d, places, ids.toArray(String[]::new));
  }

  /** The verdict on one server's RTTs (anchor order, NaN = none); null when no pair can be checked. */
  ServerIntegrity verdict(MeshBounds bounds, double[] rttMs) {
    return verdict(bounds, rttMs, ReplyEvidence.NONE);
  }

  /**
   * The same with what the landmarks' replies say (digests in anchor order); null when no pair can
   * be checked.
   */
  ServerIntegrity verdict(MeshBounds bounds, double[] rttMs, ReplyEvidence replies) {
    if (bounds == null) return null;
    IntegrityVerdict v = check.check(bounds, rttMs, null, null, replies);
    if (v.pairsChecked() == 0) return null;
    return ServerIntegrity.newBuilder()
        .setKind(switch (v.kind()) {
          case OK -> IntegrityKind.INTEGRITY_KIND_OK;
          case ANYCAST_OR_PROXY -> IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY;
          case INCONSISTENT -> IntegrityKind.INTEGRITY_KIND_INCONSISTENT;
          case ANYCAST -> IntegrityKind.INTEGRITY_KIND_ANYCAST;
          case PROXY -> IntegrityKind.INTEGRITY_KIND_PROXY;
        })
        .setReplyTells(v.replyTells())
        .setSameReplyPairs(v.sameReplyPairs())
        .setDifferentReplyPairs(v.differentReplyPairs())
        .setPairsChecked(v.pairsChecked())
        .setViolatingPairs(v.violatingPairs())
        .setWorstViolationUs((int) Math.min(Integer.MAX_VALUE, Math.round(v.worstViolationMs() * 1000)))
        .setLightViolations(v.lightViolations())
        .setEvidence(v.evidence())
        .build();
  }
}
