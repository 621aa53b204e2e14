package dev.reed.coordinates.ranking;

import java.util.List;

/**
 * One page of a ranking.
 *
 * @param servers ascending by predicted RTT, then key
 * @param next cursor for the next page; null at the end
 * @param totalMatching servers that match the filter (all pages together)
 */
public record RankedPage(List<Ranked> servers, Cursor next, int totalMatching) {
  public RankedPage {
    servers = List.copyOf(servers);
  }
}
