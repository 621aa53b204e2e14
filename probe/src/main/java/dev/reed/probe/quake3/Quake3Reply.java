package dev.reed.probe.quake3;

import dev.reed.proto.v1.ServerInfo;
import java.util.List;
import java.util.Map;

/**
 * A decoded infoResponse or statusResponse.
 *
 * @param type which reply
 * @param info the key/value pairs (infoResponse) or server cvars (statusResponse), keys looked up
 *     case-insensitively as Quake3 does, in the order sent
 * @param players player lines (statusResponse only; empty for infoResponse)
 * @param serverInfo the normalised fields
 */
public record Quake3Reply(Type type, Map<String, String> info, List<Quake3Player> players, ServerInfo serverInfo) {
  public enum Type { INFO, STATUS }

  public Quake3Reply {
    players = List.copyOf(players);
  }

  /** The challenge the server echoed, or {@code null} if it sent none. */
  public String challenge() {
    return info.get("challenge");
  }
}
