package dev.reed.coordinator.api;

import com.google.protobuf.CodedOutputStream;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.CvErrors;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.ranking.Cursor;
import dev.reed.coordinates.ranking.RankedPage;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinator.location.ClientPrior;
import dev.reed.coordinator.location.GeoModel;
import dev.reed.coordinator.location.HostGeo;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.RankedServer;
import io.grpc.Status;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * How one ranking request is ordered and what each entry says about locations:
 * <ul>
 *   <li>no location database: the coordinate distance through the index's tree, as before, and
 *       nothing more;
 *   <li>a client coordinate, no location prior (or no trained model yet): the same order, each entry
 *       with its placement and the coordinates' cross-validated uncertainty;
 *   <li>a client coordinate and a prior: the fused prediction (geo and coordinates, weights
 *       renormalised over the two; the relay bound needs the client's own landmark RTTs) by a
 *       full scan;
 *   <li>no client coordinate, a prior: zero-probe, the geographic prediction alone; servers
 *       without a location cannot be predicted and are left out.
 * </ul>
 *
 * @param geo the location model of this request
 * @param prior the client's location prior, or null
 * @param mode how entries are ordered
 */
record GeoRanking(GeoModel geo, ClientPrior prior, Mode mode) {
  enum Mode { COORDINATES, FUSED, ZERO_PROBE }

  private static final int GEO_PREDICTED_TAG = 10 << 3; // RankedServer.geo_predicted_rtt_us = 10
  private static final int UNCERTAINTY_TAG = 11 << 3; // RankedServer.uncertainty_us = 11

  /**
   * The ranking for a request.
   *
   * @param client the client's coordinate, or null (zero-probe)
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT without coordinate and prior;
   *     UNAVAILABLE for a zero-probe request before the first model is trained
   */
  static GeoRanking of(GeoModel geo, ClientPrior prior, Coordinate client) {
    if (client == null) {
      if (!geo.locating()) {
        throw RequestMapping.invalid("client is required: this coordinator has no location database (--geoip), "
            + "so it cannot rank without a coordinate");
      }
      if (prior == null) {
        throw RequestMapping.invalid("client is required when the coordinator knows no location for you: send client "
            + "(a coordinate, from calibration) or location (e.g. your city's latitude and longitude)");
      }
      if (!geo.trained()) {
        throw Status.UNAVAILABLE.withDescription("zero-probe ranking: the location model is not trained yet (after the "
            + "first round with located landmarks and servers); retry, or send client").asRuntimeException();
      }
      return new GeoRanking(geo, prior, Mode.ZERO_PROBE);
    }
    return new GeoRanking(geo, prior, geo.trained() && prior != null ? Mode.FUSED : Mode.COORDINATES);
  }

  /** Whether entries carry location fields at all (false: today's responses, byte for byte). */
  boolean decorates() {
    return geo.locating();
  }

  private Place clientPlace() {
    return prior == null ? null : prior.place();
  }

  /** One page in this ranking's order. */
  RankedPage page(ServingState s, Coordinate client, RankingFilter filter, Cursor after, int pageSize) {
    return switch (mode) {
      case COORDINATES -> s.index().query(client, filter, after, pageSize);
      case FUSED -> s.index().scan(client,
          (key, coordinateMs) -> geo.estimator().servedMs(geo.geoMs(clientPlace(), geo.server(key)), coordinateMs),
          filter, after, pageSize);
      case ZERO_PROBE -> s.index().scan(null, (key, coordinateMs) -> geo.geoMs(clientPlace(), geo.server(key)), filter,
          after, pageSize);
    };
  }

  /** The geographic prediction to a server, ms (NaN when unknown). */
  double geoMs(String key) {
    return geo.geoMs(clientPlace(), geo.server(key));
  }

  /** The relative error of the prediction served for an entry. */
  double relativeError(double geoMs) {
    CvErrors e = geo.errors();
    return switch (mode) {
      case ZERO_PROBE -> e.geo();
      case FUSED -> Double.isFinite(geoMs) ? e.geoAndCoordinates() : e.coordinates();
      case COORDINATES -> e.coordinates();
    };
  }

  /** The location fields of an entry, encoded to append to its template; null when there are none. */
  byte[] extra(String key, double predictedMs) {
    HostGeo h = geo.server(key);
    double g = geoMs(key);
    int geoUs = GeoModel.micros(g);
    int uncertaintyUs = GeoModel.uncertaintyUs(predictedMs, relativeError(g));
    int size = h.placementField().length
        + (geoUs == 0 ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(geoUs))
        + (uncertaintyUs == 0 ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(uncertaintyUs));
    if (size == 0) return null;
    byte[] out = new byte[size];
    CodedOutputStream o = CodedOutputStream.newInstance(out);
    try {
      o.writeRawBytes(h.placementField());
      if (geoUs != 0) {
        o.writeUInt32NoTag(GEO_PREDICTED_TAG);
        o.writeUInt32NoTag(geoUs);
      }
      if (uncertaintyUs != 0) {
        o.writeUInt32NoTag(UNCERTAINTY_TAG);
        o.writeUInt32NoTag(uncertaintyUs);
      }
      o.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The same fields on a message being built. */
  RankedServer decorate(RankedServer server, String key, double predictedMs) {
    if (!decorates()) return server;
    HostGeo h = geo.server(key);
    double g = geoMs(key);
    RankedServer.Builder b = server.toBuilder().setGeoPredictedRttUs(GeoModel.micros(g))
        .setUncertaintyUs(GeoModel.uncertaintyUs(predictedMs, relativeError(g)));
    if (h.placementField().length > 0) b.setPlacement(h.placement());
    return b.build();
  }
}
