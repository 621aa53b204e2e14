package dev.reed.client;

import java.util.Iterator;
import java.util.List;

/** A fixed list (calibration servers, a traditional master list) as a {@link CandidateFeed}. */
final class ListFeed implements CandidateFeed {
  private final Iterator<Candidate> it;

  ListFeed(List<Candidate> candidates) {
    this.it = List.copyOf(candidates).iterator();
  }

  @Override
  public Candidate next() {
    return it.hasNext() ? it.next() : null;
  }

  @Override
  public boolean exhausted() {
    return !it.hasNext();
  }

  @Override
  public ReedClientException failure() {
    return null;
  }
}
