package dev.reed.runtime;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import java.io.IOException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The operator's static target list ({@code --targets FILE}), read by the landmark agent (added
 * to the targets of the {@code reed.targets} topic every round) and by the coordinator (published
 * to the catalog). One format, one parser. One target per line:
 *
 * <pre>
 * # comment
 * q3  203.0.113.7:27960
 * a2s game.example.net:27015   # host names are resolved once, when the file is read
 * </pre>
 *
 * Protocols: {@code q3} (also {@code quake3}) and {@code a2s}. Literal addresses are parsed
 * without DNS; host names are resolved once, here, because coordinates belong to addresses. A
 * line that repeats an endpoint is ignored. Every bad line is reported, each with file and line.
 */
public final class TargetsFile {
  private TargetsFile() {}

  /**
   * @throws IllegalArgumentException {@code FILE:LINE: what is wrong}
   * @throws IOException the file cannot be read
   */
  public static List<Target> read(Path file) throws IOException {
    return parse(file.toString(), Files.readAllLines(file));
  }

  /** Parses the lines of a targets file; {@code name} prefixes error messages. */
  public static List<Target> parse(String name, List<String> lines) {
    Map<String, Target> out = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    for (ConfigLine l : ConfigLine.of(lines)) {
      String line = l.text();
      String where = name + ":" + l.number() + ": ";
      String[] f = line.split("\\s+");
      if (f.length != 2) {
        errors.add(where + "expected 'q3 HOST:PORT' or 'a2s HOST:PORT', got '" + line + "'");
        continue;
      }
      GameProtocol protocol = switch (f[0].toLowerCase(Locale.ROOT)) {
        case "q3", "quake3" -> GameProtocol.GAME_PROTOCOL_QUAKE3;
        case "a2s" -> GameProtocol.GAME_PROTOCOL_A2S;
        default -> null;
      };
      if (protocol == null) {
        errors.add(where + "unknown protocol '" + f[0] + "' (expected q3 or a2s)");
        continue;
      }
      try {
        Endpoint e = endpoint(f[1]);
        out.putIfAbsent(Endpoints.key(e),
            Target.newBuilder().setEndpoint(e).setProtocol(protocol).setSource(TargetSource.TARGET_SOURCE_STATIC).build());
      } catch (IllegalArgumentException ex) {
        errors.add(where + ex.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.size() == 1 ? errors.getFirst()
          : errors.size() + " bad lines:\n  " + String.join("\n  ", errors));
    }
    return List.copyOf(out.values());
  }

  /**
   * Parses one {@code HOST:PORT} ({@code [v6]:PORT} too) as the file does: a literal address
   * without DNS, a host name resolved now.
   *
   * @throws IllegalArgumentException what is wrong, without file or line
   */
  public static Endpoint endpoint(String text) {
    Endpoints.HostPort hp = Endpoints.hostPort(text, -1);
    if (hp.port() < 1) throw new IllegalArgumentException("port out of range 1-65535 in '" + text + "'");
    try {
      return Endpoint.newBuilder().setIp(Endpoints.literal(hp.host()).getHostAddress()).setPort(hp.port()).build();
    } catch (IllegalArgumentException notLiteral) {
      try {
        return Endpoints.resolve(hp.host(), hp.port());
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("cannot resolve host '" + hp.host() + "'");
      }
    }
  }
}
