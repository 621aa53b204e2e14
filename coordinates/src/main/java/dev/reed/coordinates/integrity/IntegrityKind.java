package dev.reed.coordinates.integrity;

/** What a server's landmark RTTs say about it. */
public enum IntegrityKind {
  /** Consistent with one host at one place (or too little evidence to say otherwise). */
  OK,
  /**
   * Near two or more landmarks that are far apart: the replies come from more than one place
   * (anycast edges) or from a box in front of the game (a caching query proxy).
   */
  ANYCAST_OR_PROXY,
  /**
   * Physically impossible RTTs without that pattern: sums below the landmark mesh while far from
   * the landmarks involved, or RTTs below the light-in-fibre floor to the server's own location.
   */
  INCONSISTENT,
  /**
   * The {@link #ANYCAST_OR_PROXY} pattern, and the landmarks near the server got different replies:
   * several instances answer.
   */
  ANYCAST,
  /**
   * A box answers for the game: replies a real server would not send (a stale echoed challenge, an
   * A2S info answered to a forged challenge), or the {@link #ANYCAST_OR_PROXY} pattern with the
   * landmarks near the server getting one identical reply (one cached reply served from several places).
   */
  PROXY
}
