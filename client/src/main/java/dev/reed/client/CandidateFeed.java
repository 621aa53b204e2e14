package dev.reed.client;

import dev.reed.probe.ProbeResult;

/** The servers a {@link ProbeLoop} probes, in order; may fill itself asynchronously. */
interface CandidateFeed {
  /** The next server to probe, or null if none is available right now. */
  Candidate next();

  /** True once no server will ever come again. */
  boolean exhausted();

  /** Non-null once the feed failed (the coordinator went away mid-list). */
  ReedClientException failure();

  /** A probe of a server this feed handed out finished (as measured, before any reply filter). */
  default void completed(Candidate candidate, ProbeResult result) {}
}
