package dev.reed.client;

import dev.reed.coordinates.clustering.ClusterConfig;
import dev.reed.coordinates.clustering.ClusterOrder;
import dev.reed.geo.Asn;
import dev.reed.geo.IpLocator;
import dev.reed.geo.Location;
import dev.reed.probe.NanoTicker;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.Prober;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery without a coordinator by Armitage's client-side clustering ({@link ClusterOrder}, the
 * order {@code ./reed eval} scores as its clustering baselines): the master list grouped by the
 * origin AS or the country of each address, as the configured databases say; a few servers of
 * every cluster probed first (the samples: calibration, no stop rule looks at them), then cluster
 * after cluster in ascending order of their lowest sample, the samples counted in their cluster's
 * turn without a second probe, stopped by the request's rule.
 */
final class ClusterDiscovery {
  private static final Logger log = LoggerFactory.getLogger(ClusterDiscovery.class);

  private final IpLocator locator;
  private final ClusterBy by;
  private final ClusterConfig config;
  private final Supplier<Prober> prober;
  private final double rate;
  private final NanoTicker ticker;

  ClusterDiscovery(IpLocator locator, ClusterBy by, ClusterConfig config, Supplier<Prober> prober, double rate, NanoTicker ticker) {
    this.locator = locator;
    this.by = by;
    this.config = config;
    this.prober = prober;
    this.rate = rate;
    this.ticker = ticker;
  }

  /** The labels of the list's servers under the configured (or, for AUTO, chosen) key; null when no server has one. */
  record Labels(DiscoveryResult.Method method, List<ClusterOrder.Server> servers) {}

  Labels label(List<ListedServer> list) {
    List<ClusterOrder.Server> byAs = new ArrayList<>(list.size());
    List<ClusterOrder.Server> byCountry = new ArrayList<>(list.size());
    int asKnown = 0;
    int countryKnown = 0;
    for (ListedServer s : list) {
      String as = by == ClusterBy.COUNTRY ? null
          : locator.asn(s.address().getAddress()).map(Asn::number).map(ClusterOrder::asLabel).orElse(null);
      String country = by == ClusterBy.ORIGIN_AS ? null
          : locator.locate(s.address().getAddress()).map(Location::countryCode).map(ClusterOrder::countryLabel).orElse(null);
      asKnown += as == null ? 0 : 1;
      countryKnown += country == null ? 0 : 1;
      byAs.add(new ClusterOrder.Server(s.key(), as));
      byCountry.add(new ClusterOrder.Server(s.key(), country));
    }
    if (asKnown > 0 && by != ClusterBy.COUNTRY) {
      return new Labels(DiscoveryResult.Method.CLUSTER_AS_FALLBACK, byAs);
    }
    if (countryKnown > 0 && by != ClusterBy.ORIGIN_AS) {
      return new Labels(DiscoveryResult.Method.CLUSTER_COUNTRY_FALLBACK, byCountry);
    }
    log.info("clustering by {}: the databases ({}) know none of the {} listed addresses; probing the list in its order",
        by, locator.describe(), list.size());
    return null;
  }

  /**
   * @param list the master list (unique keys), in its order
   * @param labels {@link #label}'s answer for it
   * @param start discovery start (ticker nanos): the request's maxDuration counts from here
   */
  DiscoveryResult run(List<ListedServer> list, Labels labels, DiscoveryRequest request, EventSink events, long start,
      String coordinatorFailure) {
    Map<String, ListedServer> byKey = new HashMap<>();
    for (ListedServer s : list) byKey.put(s.key(), s);
    ClusterOrder order = new ClusterOrder(config, labels.servers());
    List<Candidate> samples = new ArrayList<>();
    ClusterOrder.Pick p;
    while ((p = order.next()) != null) samples.add(Candidate.of(byKey.get(p.key())));

    // the samples: no events and no stop rule, as REED's calibration; their outcomes rank the clusters
    ProbeLoop sampling = new ProbeLoop(prober.get(), rate, ticker, new EventSink(DiscoveryListener.NONE), start,
        request.maxDuration(), 0, ReplyFilter.NONE);
    ListFeed sampleFeed = new ListFeed(samples);
    ProbeLoop.Outcome sampled = sampling.run(new CandidateFeed() {
      @Override
      public Candidate next() {
        return sampleFeed.next();
      }

      @Override
      public boolean exhausted() {
        return sampleFeed.exhausted();
      }

      @Override
      public ReedClientException failure() {
        return null;
      }

      @Override
      public void completed(Candidate c, ProbeResult r) {
        if (r.ok()) {
          order.replied(c.key(), r.rttNanos() / 1e6);
        } else {
          order.noReply(c.key());
        }
      }
    }, StopCondition.NEVER, Map.of());
    Map<String, ProbeResult> measured = new HashMap<>();
    for (ProbeLoop.Recorded r : sampled.results()) measured.put(r.candidate().key(), r.result());
    for (Candidate c : samples) {
      if (!measured.containsKey(c.key())) order.noReply(c.key()); // time limit: never answered
    }
    int calibration = sampled.sent();
    ProbeLoop loop = new ProbeLoop(prober.get(), rate, ticker, events, start, request.maxDuration(), calibration,
        new ReplyFilter(request.filter()));
    CandidateFeed ranked = new CandidateFeed() {
      private boolean announced;

      @Override
      public Candidate next() {
        ClusterOrder.Pick q;
        while ((q = order.next()) != null) {
          if (!announced) {
            announced = true;
            events.emit(new DiscoveryEvent.ClustersRanked(labels.method(), order.ranking(), calibration,
                Duration.ofNanos(ticker.read() - start)));
          }
          // a sample the time limit kept from being sent has nothing to show in its turn
          if (q.kind() != ClusterOrder.Kind.MEASURED || measured.containsKey(q.key())) {
            return Candidate.of(byKey.get(q.key())).withPredictedMs(q.predictedMs());
          }
        }
        return null;
      }

      @Override
      public boolean exhausted() {
        return order.exhausted();
      }

      @Override
      public ReedClientException failure() {
        return null;
      }
    };
    ProbeLoop.Outcome out = loop.run(ranked, StopConditions.of(request.stop()), measured);
    int probes = calibration + out.sent();
    Duration elapsed = Duration.ofNanos(out.stopNanos() - start);
    events.emit(new DiscoveryEvent.Stopped(out.reason(), probes, elapsed));
    log.info("{}: {} clusters of {} servers, {} samples, {} probes, {} found in {} ms, stopped: {}", labels.method(),
        order.clusterCount(), list.size(), calibration, probes, out.found().size(), elapsed.toMillis(), out.reason());
    return new DiscoveryResult(labels.method(), probes, calibration + out.needed(), calibration,
        sampled.timeouts() + out.timeouts(), elapsed, out.found(), out.reason(), null, coordinatorFailure);
  }
}
