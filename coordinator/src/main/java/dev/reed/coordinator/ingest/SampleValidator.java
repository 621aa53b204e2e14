package dev.reed.coordinator.ingest;

import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import java.util.function.Predicate;

/**
 * Decides whether a decoded sample may enter the windows. Every rule names what is wrong, and the
 * reason goes to the dead-letter topic's header, so an operator can see why a landmark's data was
 * refused (docs/design.md section 6: nothing is lost silently, nothing invalid reaches the embedding).
 */
public final class SampleValidator {

  private final Predicate<String> knownLandmark;

  /** @param knownLandmark true for a landmark id announced on reed.landmarks */
  public SampleValidator(Predicate<String> knownLandmark) {
    this.knownLandmark = knownLandmark;
  }

  /**
   * @param recordKey the Kafka record key (null if none)
   * @param targetKey {@code Endpoints.key(s.getTarget())}
   * @param knownTarget the target key was validated before (skips re-parsing the address)
   * @return null if valid, else the reason
   */
  public String check(RttSample s, String recordKey, String targetKey, boolean knownTarget) {
    if (s.getLandmarkId().isEmpty()) return "missing landmark_id";
    if (!s.hasTarget()) return "missing target";
    if (!knownTarget) {
      try {
        String canonical = Endpoints.key(Endpoints.parse(targetKey));
        if (!canonical.equals(targetKey)) return "target endpoint not in canonical form: " + targetKey;
      } catch (IllegalArgumentException e) {
        return "bad target endpoint: " + e.getMessage();
      }
    }
    if (recordKey != null && !recordKey.equals(targetKey)) {
      return "record key '" + recordKey + "' differs from target " + targetKey;
    }
    if (s.getProtocol() == GameProtocol.GAME_PROTOCOL_UNSPECIFIED || s.getProtocol() == GameProtocol.UNRECOGNIZED) {
      return "missing or unknown protocol";
    }
    String status = checkStatus(s.getStatus(), s.getRttUs());
    if (status != null) return status;
    if (!knownLandmark.test(s.getLandmarkId())) return "unknown landmark '" + s.getLandmarkId() + "'";
    return null;
  }

  /** @return null if valid, else the reason */
  public String check(MeshSample s) {
    if (s.getLandmarkId().isEmpty()) return "missing landmark_id";
    if (s.getPeerLandmarkId().isEmpty()) return "missing peer_landmark_id";
    if (s.getLandmarkId().equals(s.getPeerLandmarkId())) return "landmark measured itself";
    String status = checkStatus(s.getStatus(), s.getRttUs());
    if (status != null) return status;
    if (!knownLandmark.test(s.getLandmarkId())) return "unknown landmark '" + s.getLandmarkId() + "'";
    if (!knownLandmark.test(s.getPeerLandmarkId())) return "unknown peer landmark '" + s.getPeerLandmarkId() + "'";
    return null;
  }

  private static String checkStatus(ProbeStatus status, int rttUs) {
    switch (status) {
      case PROBE_STATUS_OK -> {
        long rtt = Integer.toUnsignedLong(rttUs);
        if (rtt < 1 || rtt > RttBound.MAX_US) return "rtt_us out of range 1-" + RttBound.MAX_US + ": " + rtt;
        return null;
      }
      case PROBE_STATUS_TIMEOUT, PROBE_STATUS_ERROR -> {
        return null;
      }
      default -> {
        return "missing or unknown status";
      }
    }
  }
}
