package dev.reed.client;

import dev.reed.proto.RttBound;
import java.util.Locale;

/**
 * Which servers the coordinator lists (applied before ranking, so filtered servers cost no
 * probe). Empty strings and false/zero filter nothing.
 *
 * @param game game identifier (ServerInfo.game: A2S folder e.g. "cstrike", Quake3 gamename e.g. "Quake3Arena"), exact, case-insensitive; "" = any
 * @param map map name, exact, case-insensitive; "" = any
 * @param minPlayers minimum players connected (bots included)
 * @param notFull only servers with a free slot
 * @param notEmpty only servers with at least one player
 * @param password password handling
 * @param rttLimitMs RTT_limit: only servers predicted within this many ms; 0 = no limit
 */
public record Filter(String game, String map, int minPlayers, boolean notFull, boolean notEmpty,
    Password password, double rttLimitMs) {

  /** Password-protected servers: listed or not. */
  public enum Password { ANY, EXCLUDE, ONLY }

  public Filter {
    game = game == null ? "" : game.strip().toLowerCase(Locale.ROOT);
    map = map == null ? "" : map.strip().toLowerCase(Locale.ROOT);
    if (minPlayers < 0) throw new IllegalArgumentException("minPlayers must be >= 0: " + minPlayers);
    if (password == null) password = Password.ANY;
    if (!(rttLimitMs >= 0) || rttLimitMs > RttBound.MAX_MS) {
      throw new IllegalArgumentException("rttLimitMs must be 0 (none) or 0-" + RttBound.MAX_MS + " ms: " + rttLimitMs);
    }
  }

  /** Lists every server. */
  public static Filter none() {
    return new Filter("", "", 0, false, false, Password.ANY, 0);
  }

  public Filter withGame(String g) {
    return new Filter(g, map, minPlayers, notFull, notEmpty, password, rttLimitMs);
  }

  public Filter withMap(String m) {
    return new Filter(game, m, minPlayers, notFull, notEmpty, password, rttLimitMs);
  }

  public Filter withMinPlayers(int n) {
    return new Filter(game, map, n, notFull, notEmpty, password, rttLimitMs);
  }

  public Filter withNotFull(boolean b) {
    return new Filter(game, map, minPlayers, b, notEmpty, password, rttLimitMs);
  }

  public Filter withNotEmpty(boolean b) {
    return new Filter(game, map, minPlayers, notFull, b, password, rttLimitMs);
  }

  public Filter withPassword(Password p) {
    return new Filter(game, map, minPlayers, notFull, notEmpty, p, rttLimitMs);
  }

  public Filter withRttLimitMs(double ms) {
    return new Filter(game, map, minPlayers, notFull, notEmpty, password, ms);
  }
}
