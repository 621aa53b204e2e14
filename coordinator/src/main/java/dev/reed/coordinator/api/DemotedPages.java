package dev.reed.coordinator.api;

import dev.reed.coordinates.ranking.Cursor;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinates.ranking.SuspectRule;
import java.util.ArrayList;
import java.util.List;

/**
 * SUSPECT_SERVERS_DEMOTE as two rankings in a row: the servers the integrity check does not flag,
 * then the flagged ones, each in the ranking's own order, so a flagged server never displaces an
 * unflagged one and is still listed. The page token says which half it continues: a ranking
 * cursor for the first, {@code d2.} + a cursor (or nothing: the start) for the second. When the
 * index flags nobody the ranking is the plain one, byte for byte.
 *
 * @param <T> an entry of the ranking (a ranked server, a group-ranked server)
 */
final class DemotedPages<T> {
  /** One page of one half. */
  record Slice<T>(List<T> items, Cursor next, int total) {}

  /** The ranking, for a filter. */
  interface Pager<T> {
    Slice<T> page(RankingFilter filter, Cursor after, int size);
  }

  /** A page of the whole: entries, the next token ("" at the end), servers matching in both halves. */
  record Page<T>(List<T> items, String nextToken, int total) {}

  private static final String SECOND = "d2.";

  private DemotedPages() {}

  /** Whether a token continues the second half. */
  static boolean isSecondHalf(String token) {
    return token.startsWith(SECOND);
  }

  static <T> Page<T> page(Pager<T> pager, RankingFilter filter, String token, int size) {
    RankingFilter unflagged = filter.withSuspects(SuspectRule.EXCLUDE);
    RankingFilter flagged = filter.withSuspects(SuspectRule.ONLY);
    List<T> items = new ArrayList<>(size);
    int firstTotal;
    Cursor secondAfter = null;
    if (!isSecondHalf(token)) {
      Slice<T> first = pager.page(unflagged, RequestMapping.cursor(token), size);
      items.addAll(first.items());
      firstTotal = first.total();
      if (first.next() != null) {
        int secondTotal = pager.page(flagged, null, 1).total();
        return new Page<>(items, first.next().encode(), firstTotal + secondTotal);
      }
      if (items.size() == size) {
        int secondTotal = pager.page(flagged, null, 1).total();
        return new Page<>(items, secondTotal == 0 ? "" : SECOND, firstTotal + secondTotal);
      }
    } else {
      String rest = token.substring(SECOND.length());
      secondAfter = rest.isEmpty() ? null : RequestMapping.cursor(rest);
      firstTotal = pager.page(unflagged, null, 1).total();
    }
    Slice<T> second = pager.page(flagged, secondAfter, size - items.size());
    items.addAll(second.items());
    return new Page<>(items, second.next() == null ? "" : SECOND + second.next().encode(), firstTotal + second.total());
  }
}
