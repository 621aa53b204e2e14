package dev.reed.coordinator.snapshot;

import com.google.gson.stream.JsonWriter;
import dev.reed.coordinates.Stats;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ServerCoordinate;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Snapshot files for analysts: {@code snapshot-<epoch>.csv.gz} (one row per server: address,
 * protocol, game, coordinates, height, fit error, landmarks used, age, integrity verdict and violated
 * landmark pairs) and
 * {@code snapshot-<epoch>.json} (dimensions, landmark coordinates, error distribution, counts),
 * where {@code <epoch>} is the UNIX time in seconds. Files are written under a temporary name and
 * moved into place, so a reader never sees half a file; only the newest {@code keep} are kept.
 */
public final class SnapshotFiles {
  private final Path dir;
  private final int keep;

  public SnapshotFiles(Path dir, int keep) {
    this.dir = dir;
    this.keep = keep;
  }

  /** Writes one snapshot; returns the CSV path. */
  public Path write(ServingState s, Instant now) throws IOException {
    return write(s, dev.reed.coordinator.location.GeoModel.NONE, now);
  }

  /**
   * Writes one snapshot with locations: with a location database ({@code geo.locating()}) each CSV
   * row also has {@code lat,lon,location_source,country,asn,geo_excess_ms} (empty when unknown).
   */
  public Path write(ServingState s, dev.reed.coordinator.location.GeoModel geo, Instant now) throws IOException {
    Files.createDirectories(dir);
    long epoch = now.getEpochSecond();
    List<ServerCoordinate> servers = new ArrayList<>(s.servers().size());
    for (ServerCoordinate c : s.servers().values()) servers.add(geo.decorate(c));
    servers.sort(Comparator.comparing(c -> Endpoints.key(c.getEndpoint())));
    Path csv = dir.resolve("snapshot-" + epoch + ".csv.gz");
    Path tmp = dir.resolve(".snapshot-" + epoch + ".csv.gz.tmp");
    try (Writer w = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(tmp)),
        StandardCharsets.UTF_8))) {
      if (geo.locating()) {
        w.write(csvHeader(s.dimensions()) + GEO_COLUMNS);
        w.write('\n');
        for (ServerCoordinate c : servers) {
          w.write(csvRow(c, now) + geoColumns(c));
          w.write('\n');
        }
      } else {
        writeCsv(w, servers, s.dimensions(), now);
      }
    }
    Files.move(tmp, csv, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Path json = dir.resolve("snapshot-" + epoch + ".json");
    Path jtmp = dir.resolve(".snapshot-" + epoch + ".json.tmp");
    Files.writeString(jtmp, summary(s, servers, now));
    Files.move(jtmp, json, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    prune();
    return csv;
  }

  /** The columns a snapshot file adds with a location database. */
  static final String GEO_COLUMNS = ",lat,lon,location_source,country,asn,geo_excess_ms";

  /** The location columns of a row (see {@link #GEO_COLUMNS}). */
  static String geoColumns(ServerCoordinate c) {
    if (!c.hasPlacement()) return ",,,,,";
    dev.reed.proto.v1.Placement p = c.getPlacement();
    boolean at = p.hasPoint() && p.getSource() != dev.reed.proto.v1.LocationSource.LOCATION_SOURCE_UNSPECIFIED;
    String source = switch (p.getSource()) {
      case LOCATION_SOURCE_DATABASE -> "database";
      case LOCATION_SOURCE_ANNOUNCED -> "announced";
      case LOCATION_SOURCE_CLIENT -> "client";
      default -> "";
    };
    return "," + (at ? fmt(p.getPoint().getLatitudeDeg()) : "") + "," + (at ? fmt(p.getPoint().getLongitudeDeg()) : "") + ","
        + source + "," + p.getCountry() + "," + (p.getAsn() == 0 ? "" : Integer.toUnsignedString(p.getAsn())) + ","
        + (at ? fmt(c.getGeoExcessUs() / 1000.0) : "");
  }

  /** The CSV header for a dimension count. */
  public static String csvHeader(int dimensions) {
    StringBuilder b = new StringBuilder("address,protocol,game");
    for (int i = 0; i < dimensions; i++) b.append(",x").append(i);
    return b.append(",height_ms,relative_error,landmarks_used,age_s,integrity,violating_pairs").toString();
  }

  /** Writes the header and one row per server. */
  public static void writeCsv(Writer w, List<ServerCoordinate> servers, int dimensions, Instant now) throws IOException {
    w.write(csvHeader(dimensions));
    w.write('\n');
    for (ServerCoordinate c : servers) {
      w.write(csvRow(c, now));
      w.write('\n');
    }
  }

  public static String csvRow(ServerCoordinate c, Instant now) {
    StringBuilder b = new StringBuilder();
    b.append(Endpoints.key(c.getEndpoint())).append(',')
        .append(protocolName(c.getProtocol())).append(',')
        .append(csvText(c.getServerInfo().getGame()));
    for (double v : c.getCoordinate().getComponentsList()) b.append(',').append(fmt(v));
    b.append(',').append(fmt(c.getCoordinate().getHeightMs()))
        .append(',').append(fmt(c.getFit().getRelativeError()))
        .append(',').append(c.getFit().getLandmarksUsed())
        .append(',').append(Math.max(0, now.getEpochSecond() - c.getUpdateTime().getSeconds()))
        .append(',').append(integrityName(c.getIntegrity().getKind()))
        .append(',').append(c.hasIntegrity() ? Integer.toString(c.getIntegrity().getViolatingPairs()) : "");
    return b.toString();
  }

  /** {@code ok}, {@code anycast_or_proxy}, {@code inconsistent}, {@code anycast}, {@code proxy}, or empty when not checked. */
  static String integrityName(dev.reed.proto.v1.IntegrityKind k) {
    return switch (k) {
      case INTEGRITY_KIND_OK -> "ok";
      case INTEGRITY_KIND_ANYCAST_OR_PROXY -> "anycast_or_proxy";
      case INTEGRITY_KIND_INCONSISTENT -> "inconsistent";
      case INTEGRITY_KIND_ANYCAST -> "anycast";
      case INTEGRITY_KIND_PROXY -> "proxy";
      default -> "";
    };
  }

  static String protocolName(dev.reed.proto.v1.GameProtocol p) {
    return switch (p) {
      case GAME_PROTOCOL_A2S -> "a2s";
      case GAME_PROTOCOL_QUAKE3 -> "q3";
      default -> "unknown";
    };
  }

  private static String csvText(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) return s;
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String summary(ServingState s, List<ServerCoordinate> servers, Instant now) throws IOException {
    double[] errors = servers.stream().mapToDouble(c -> c.getFit().getRelativeError()).sorted().toArray();
    List<LandmarkCoordinate> ls = new ArrayList<>(s.landmarks().values());
    ls.sort(Comparator.comparing(LandmarkCoordinate::getLandmarkId));
    StringWriter out = new StringWriter();
    try (JsonWriter w = new JsonWriter(out)) {
      w.setIndent("  ");
      w.beginObject();
      w.name("time").value(now.toString());
      w.name("index_time").value(s.builtAt().toString());
      w.name("dimensions").value(s.dimensions());
      w.name("height_model").value(s.heightModel());
      w.name("landmark_epoch").value(s.landmarkEpoch());
      w.name("counts").beginObject()
          .name("servers").value(servers.size())
          .name("landmarks").value(s.landmarks().size())
          .name("quarantined_landmarks").value(s.quarantinedLandmarks().size())
          .name("catalog_targets").value(s.targets().size())
          .name("flagged_anycast_or_proxy").value(servers.stream()
              .filter(c -> c.getIntegrity().getKind() == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY).count())
          .name("flagged_inconsistent").value(servers.stream()
              .filter(c -> c.getIntegrity().getKind() == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_INCONSISTENT).count())
          .name("flagged_anycast").value(servers.stream()
              .filter(c -> c.getIntegrity().getKind() == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST).count())
          .name("flagged_proxy").value(servers.stream()
              .filter(c -> c.getIntegrity().getKind() == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_PROXY).count())
          .endObject();
      w.name("relative_error").beginObject();
      if (errors.length > 0) {
        w.name("p50").jsonValue(fmt(Stats.quantile(errors, 0.5)));
        w.name("p90").jsonValue(fmt(Stats.quantile(errors, 0.9)));
        w.name("p99").jsonValue(fmt(Stats.quantile(errors, 0.99)));
        w.name("max").jsonValue(fmt(errors[errors.length - 1]));
      }
      w.endObject();
      w.name("landmarks").beginArray();
      for (LandmarkCoordinate l : ls) {
        w.beginObject();
        w.name("id").value(l.getLandmarkId());
        w.name("region").value(l.getRegion());
        w.name("beacon").value(l.hasBeacon() ? Endpoints.key(l.getBeacon()) : "");
        w.name("coordinate").beginArray();
        for (double c : l.getCoordinate().getComponentsList()) w.jsonValue(fmt(c));
        w.endArray();
        w.name("height_ms").jsonValue(fmt(l.getCoordinate().getHeightMs()));
        w.name("relative_error").jsonValue(fmt(l.getFit().getRelativeError()));
        w.endObject();
      }
      w.endArray();
      w.name("quarantined_landmarks").beginArray();
      for (LandmarkCoordinate l : s.quarantinedLandmarks().values().stream()
          .sorted(Comparator.comparing(LandmarkCoordinate::getLandmarkId)).toList()) {
        w.beginObject().name("id").value(l.getLandmarkId()).name("reason").value(l.getQuarantineReason()).endObject();
      }
      w.endArray();
      w.endObject();
    }
    return out.append('\n').toString();
  }

  private void prune() throws IOException {
    List<Path> csvs;
    try (Stream<Path> files = Files.list(dir)) {
      csvs = files.filter(p -> p.getFileName().toString().matches("snapshot-\\d+\\.csv\\.gz"))
          .sorted(Comparator.comparingLong(SnapshotFiles::epochOf)).toList();
    }
    for (int i = 0; i < csvs.size() - keep; i++) {
      long e = epochOf(csvs.get(i));
      Files.deleteIfExists(csvs.get(i));
      Files.deleteIfExists(dir.resolve("snapshot-" + e + ".json"));
    }
  }

  private static long epochOf(Path p) {
    String n = p.getFileName().toString();
    return Long.parseLong(n.substring("snapshot-".length(), n.indexOf('.')));
  }
}
