package dev.reed.coordinates.ranking;

/**
 * The filters of REED Algorithm 4 (Armitage &amp; Heyde 2011) and of common server browsers.
 *
 * @param game game name to match exactly; null or "" = any
 * @param map map name to match exactly; null or "" = any
 * @param minPlayers at least this many players (0 = any)
 * @param notFull exclude servers with players &gt;= maxPlayers (when maxPlayers is known, &gt; 0)
 * @param notEmpty exclude servers with no players
 * @param password password rule; null = ANY
 * @param protocol protocol version to match; 0 = any
 * @param rttLimitMs RTT_limit: exclude servers predicted farther than this; 0 = none
 * @param suspects servers the integrity check flags; null = ANY
 */
public record RankingFilter(String game, String map, int minPlayers, boolean notFull, boolean notEmpty,
    PasswordRule password, int protocol, double rttLimitMs, SuspectRule suspects) {

  public RankingFilter {
    game = game == null ? "" : game;
    map = map == null ? "" : map;
    password = password == null ? PasswordRule.ANY : password;
    suspects = suspects == null ? SuspectRule.ANY : suspects;
    if (minPlayers < 0) {
      throw new IllegalArgumentException("minPlayers must be >= 0, got " + minPlayers);
    }
    if (protocol < 0) {
      throw new IllegalArgumentException("protocol must be >= 0, got " + protocol);
    }
    if (!Double.isFinite(rttLimitMs) || rttLimitMs < 0) {
      throw new IllegalArgumentException("rttLimitMs must be finite and >= 0 (0 = none), got " + rttLimitMs);
    }
  }

  /** Flagged servers ranked like the rest. */
  public RankingFilter(String game, String map, int minPlayers, boolean notFull, boolean notEmpty, PasswordRule password,
      int protocol, double rttLimitMs) {
    this(game, map, minPlayers, notFull, notEmpty, password, protocol, rttLimitMs, SuspectRule.ANY);
  }

  private static final RankingFilter NONE = new RankingFilter("", "", 0, false, false, PasswordRule.ANY, 0, 0);

  /** Everything matches. */
  public static RankingFilter none() {
    return NONE;
  }

  /** This filter with another RTT_limit. */
  public RankingFilter withRttLimit(double ms) {
    return new RankingFilter(game, map, minPlayers, notFull, notEmpty, password, protocol, ms, suspects);
  }

  /** This filter with another rule for flagged servers. */
  public RankingFilter withSuspects(SuspectRule rule) {
    return new RankingFilter(game, map, minPlayers, notFull, notEmpty, password, protocol, rttLimitMs, rule);
  }

  /** True when only attributes (not RTT) matter and nothing is excluded by them. */
  boolean attributesUnconstrained() {
    return game.isEmpty() && map.isEmpty() && minPlayers == 0 && !notFull && !notEmpty
        && password == PasswordRule.ANY && protocol == 0 && suspects == SuspectRule.ANY;
  }

  /** Attribute part of the filter (RTT_limit not considered). */
  public boolean matches(ServerAttributes a) {
    return (game.isEmpty() || game.equals(a.game()))
        && (map.isEmpty() || map.equals(a.map()))
        && a.players() >= minPlayers
        && !(notFull && a.maxPlayers() > 0 && a.players() >= a.maxPlayers())
        && !(notEmpty && a.players() == 0)
        && (password == PasswordRule.ANY || (password == PasswordRule.ONLY) == a.password())
        && (protocol == 0 || protocol == a.protocol())
        && (suspects == SuspectRule.ANY || (suspects == SuspectRule.ONLY) == a.suspect());
  }
}
