package dev.reed.coordinator.snapshot;

import com.google.gson.JsonPrimitive;
import dev.reed.coordinates.Stats;
import dev.reed.coordinator.index.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ServerCoordinate;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Snapshot files for analysts: {@code snapshot-<epoch>.csv.gz} (one row per server: address,
 * protocol, game, coordinates, height, fit error, landmarks used, age) and
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
    Files.createDirectories(dir);
    long epoch = now.getEpochSecond();
    List<ServerCoordinate> servers = new ArrayList<>(s.servers().values());
    servers.sort(Comparator.comparing(c -> Endpoints.key(c.getEndpoint())));
    Path csv = dir.resolve("snapshot-" + epoch + ".csv.gz");
    Path tmp = dir.resolve(".snapshot-" + epoch + ".csv.gz.tmp");
    try (Writer w = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(tmp)),
        StandardCharsets.UTF_8))) {
      writeCsv(w, servers, s.dimensions(), now);
    }
    Files.move(tmp, csv, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Path json = dir.resolve("snapshot-" + epoch + ".json");
    Path jtmp = dir.resolve(".snapshot-" + epoch + ".json.tmp");
    Files.writeString(jtmp, summary(s, servers, now));
    Files.move(jtmp, json, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    prune();
    return csv;
  }

  /** The CSV header for a dimension count. */
  public static String csvHeader(int dimensions) {
    StringBuilder b = new StringBuilder("address,protocol,game");
    for (int i = 0; i < dimensions; i++) b.append(",x").append(i);
    return b.append(",height_ms,relative_error,landmarks_used,age_s").toString();
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
        .append(',').append(Math.max(0, now.getEpochSecond() - c.getUpdateTime().getSeconds()));
    return b.toString();
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

  private static String summary(ServingState s, List<ServerCoordinate> servers, Instant now) {
    double[] errors = servers.stream().mapToDouble(c -> c.getFit().getRelativeError()).sorted().toArray();
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"time\": \"").append(now).append("\",\n");
    b.append("  \"index_time\": \"").append(s.builtAt()).append("\",\n");
    b.append("  \"dimensions\": ").append(s.dimensions()).append(",\n");
    b.append("  \"height_model\": ").append(s.heightModel()).append(",\n");
    b.append("  \"landmark_epoch\": ").append(s.landmarkEpoch()).append(",\n");
    b.append("  \"counts\": {\"servers\": ").append(servers.size())
        .append(", \"landmarks\": ").append(s.landmarks().size())
        .append(", \"catalog_targets\": ").append(s.targets().size()).append("},\n");
    b.append("  \"relative_error\": {");
    if (errors.length > 0) {
      b.append("\"p50\": ").append(fmt(Stats.quantile(errors, 0.5))).append(", \"p90\": ").append(fmt(Stats.quantile(errors, 0.9)))
          .append(", \"p99\": ").append(fmt(Stats.quantile(errors, 0.99))).append(", \"max\": ").append(fmt(errors[errors.length - 1]));
    }
    b.append("},\n  \"landmarks\": [");
    List<LandmarkCoordinate> ls = new ArrayList<>(s.landmarks().values());
    ls.sort(Comparator.comparing(LandmarkCoordinate::getLandmarkId));
    for (int i = 0; i < ls.size(); i++) {
      LandmarkCoordinate l = ls.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\"id\": ").append(jsonString(l.getLandmarkId()))
          .append(", \"region\": ").append(jsonString(l.getRegion()))
          .append(", \"beacon\": ").append(jsonString(l.hasBeacon() ? Endpoints.key(l.getBeacon()) : ""))
          .append(", \"coordinate\": ").append(Arrays.toString(l.getCoordinate().getComponentsList().stream()
              .map(SnapshotFiles::fmt).toArray()))
          .append(", \"height_ms\": ").append(fmt(l.getCoordinate().getHeightMs()))
          .append(", \"relative_error\": ").append(fmt(l.getFit().getRelativeError())).append('}');
    }
    b.append(ls.isEmpty() ? "]\n" : "\n  ]\n").append("}\n");
    return b.toString();
  }

  static String jsonString(String s) {
    return new JsonPrimitive(s).toString(); // quoted and escaped, no HTML escaping
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
