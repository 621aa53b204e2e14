package dev.reed.coordinates.ranking;

/**
 * What a server browser filters on (from the game's own query reply: A2S_INFO or Quake3 getinfo).
 * Null strings become "" (unknown).
 */
public record ServerAttributes(String game, String map, int players, int maxPlayers, boolean password, int protocol) {
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

  /** Nothing known yet (a server not probed by any landmark with a full reply). */
  public static ServerAttributes unknown() {
    return new ServerAttributes("", "", 0, 0, false, 0);
  }
}
