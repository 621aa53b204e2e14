package dev.reed.client;

import dev.reed.proto.v1.ServerInfo;

/**
 * Checks a server's own reply against the player's {@link Filter}. The coordinator filters with
 * what the landmarks saw (up to a round old) and a master list is not filtered at all, so both
 * REED and traditional discovery judge each server by the reply the player just got: a server
 * that filled up since is not offered, and the traditional baseline reports the same kind of
 * servers as REED. (RTT_limit is a predicted-RTT filter and stays with the coordinator.)
 */
final class ReplyFilter {
  /** Accepts everything (calibration). */
  static final ReplyFilter NONE = new ReplyFilter(Filter.none());

  private final Filter filter;

  ReplyFilter(Filter filter) {
    this.filter = filter;
  }

  /** Why the reply does not match, or null if it does. */
  String mismatch(ServerInfo i) {
    if (!filter.game().isEmpty() && !filter.game().equalsIgnoreCase(i.getGame())) return "game is '" + i.getGame() + "'";
    if (!filter.map().isEmpty() && !filter.map().equalsIgnoreCase(i.getMap())) return "map is '" + i.getMap() + "'";
    if (i.getPlayers() < filter.minPlayers()) return i.getPlayers() + " players";
    if (filter.notFull() && i.getMaxPlayers() > 0 && i.getPlayers() >= i.getMaxPlayers()) {
      return "full (" + i.getPlayers() + "/" + i.getMaxPlayers() + ")";
    }
    if (filter.notEmpty() && i.getPlayers() == 0) return "empty";
    if (filter.password() == Filter.Password.EXCLUDE && i.getPassword()) return "password protected";
    if (filter.password() == Filter.Password.ONLY && !i.getPassword()) return "no password";
    return null;
  }
}
