package dev.reed.coordinator.catalog;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses a static target list, the same format the landmark agent reads: one {@code q3 HOST:PORT}
 * or {@code a2s HOST:PORT} per line, {@code #} starts a comment. Host names are resolved here,
 * once: coordinates belong to addresses.
 */
public final class TargetFile {
  private TargetFile() {}

  /** One line of the file. */
  public record Entry(Endpoint endpoint, GameProtocol protocol) {}

  /** @throws IllegalArgumentException naming the file, line and what is wrong */
  public static List<Entry> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      if (hash >= 0) line = line.substring(0, hash);
      line = line.strip();
      if (line.isEmpty()) continue;
      try {
        out.add(parseLine(line));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  static Entry parseLine(String line) {
    String[] parts = line.split("\\s+");
    if (parts.length != 2) throw new IllegalArgumentException("expected 'q3|a2s HOST:PORT', got '" + line + "'");
    GameProtocol protocol = switch (parts[0].toLowerCase(Locale.ROOT)) {
      case "q3", "quake3" -> GameProtocol.GAME_PROTOCOL_QUAKE3;
      case "a2s" -> GameProtocol.GAME_PROTOCOL_A2S;
      default -> throw new IllegalArgumentException("unknown protocol '" + parts[0] + "' (q3 or a2s)");
    };
    String hostPort = parts[1];
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0) throw new IllegalArgumentException("expected HOST:PORT, got '" + hostPort + "'");
    String host = hostPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad port in '" + hostPort + "'");
    }
    if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range 1-65535: " + port);
    try {
      return new Entry(Endpoints.resolve(host, port), protocol);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve host '" + host + "'", e);
    }
  }
}
