package dev.reed.coordinator.location;

import com.google.protobuf.CodedOutputStream;
import dev.reed.coordinates.geo.Place;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;

/**
 * What the coordinator knows about where one host is.
 *
 * @param placement as served (RankedServer.placement, ServerCoordinate.placement); the default
 *     instance when nothing is known
 * @param place the location the estimator uses, or null (unknown, or ignored as contradicted)
 * @param excessMs the host's excess over the distance model (access delay, detours), 0 when
 *     unknown
 * @param placementField {@code placement} encoded as RankedServer field 9 (tag, length, bytes), to
 *     append to a pre-encoded ranking entry; empty when there is nothing to say
 */
public record HostGeo(Placement placement, Place place, double excessMs, byte[] placementField) {
  /** Nothing known. */
  public static final HostGeo UNKNOWN = of(Placement.getDefaultInstance(), null, 0);

  private static final int PLACEMENT_TAG = (9 << 3) | 2; // RankedServer.placement = 9

  public static HostGeo of(Placement placement, Place place, double excessMs) {
    byte[] field = new byte[0];
    if (!placement.equals(Placement.getDefaultInstance())) {
      byte[] body = placement.toByteArray();
      field = new byte[1 + CodedOutputStream.computeUInt32SizeNoTag(body.length) + body.length];
      CodedOutputStream o = CodedOutputStream.newInstance(field);
      try {
        o.writeUInt32NoTag(PLACEMENT_TAG);
        o.writeUInt32NoTag(body.length);
        o.writeRawBytes(body);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return new HostGeo(placement, place, excessMs, field);
  }

  /** The same host with another excess. */
  public HostGeo withExcess(double ms) {
    return new HostGeo(placement, place, ms, placementField);
  }

  /** Whether the location is known (and used). */
  public boolean located() {
    return place != null && placement.getSource() != LocationSource.LOCATION_SOURCE_UNSPECIFIED;
  }
}
