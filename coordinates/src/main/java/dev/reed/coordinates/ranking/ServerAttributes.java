package dev.reed.coordinates.ranking;

/**
 * What a server browser filters on (from the game's own query reply: A2S_INFO or Quake3 getinfo),
 * and whether the host integrity check flags the server ({@code suspect}: its landmark RTTs are
 * impossible for one host, see {@code dev.reed.coordinates.integrity}). Null strings become "" (unknown).
 */
public record ServerAttributes(String game, String map, int players, int maxPlayers, boolean password, int protocol,
    boolean suspect) {
  public ServerAttributes {
    game = game == null ? "" : game;
    map = map == null ? "" : map;
    if (players < 0 || maxPlayers < 0) {
      throw new IllegalArgumentException("players and maxPlayers must be >= 0, got " + players + "/" + maxPlayers);
    }
    if (protocol < 0) {
      throw new IllegalArgumentException("protocol must be >= 0, got " + protocol);
    }
  }

  /** Not flagged. */
  public ServerAttributes(String game, String map, int players, int maxPlayers, boolean password, int protocol) {
    this(game, map, players, maxPlayers, password, protocol, false);
  }

  /** Nothing known yet (a server not probed by any landmark with a full reply). */
  public static ServerAttributes unknown() {
    return new ServerAttributes("", "", 0, 0, false, 0);
  }
}
