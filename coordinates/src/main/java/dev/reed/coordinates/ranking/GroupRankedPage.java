package dev.reed.coordinates.ranking;

import java.util.List;

/** One page of a group ranking; cursor semantics as {@link RankedPage}, on the score. */
public record GroupRankedPage(List<GroupRanked> servers, Cursor next, int totalMatching) {
  public GroupRankedPage {
    servers = List.copyOf(servers);
  }
}
