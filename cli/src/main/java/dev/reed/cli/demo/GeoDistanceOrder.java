package dev.reed.cli.demo;

import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.coordinates.geo.GreatCircle;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The demo's "geo distance" rows: the server list ordered by great-circle distance from
 * the player's location, with no calibration probe, what web server lists do today. The list is
 * probed for real like the other rows; {@link #replay} then applies the same stop rules
 * (coordinates.autostop, which the client SDK runs) to the replies in probe order, so the row
 * counts the probes a browser would have sent by the time the rule said stop.
 */
final class GeoDistanceOrder {
  private GeoDistanceOrder() {}

  /**
   * {@code servers} by ascending great-circle distance from {@code from}; servers without a
   * location keep their list order after every located one (a database leaves out what it does
   * not know, and a browser still lists them). Ties keep list order.
   */
  static <T> List<T> byDistance(Place from, List<T> servers, Function<T, Place> location) {
    Objects.requireNonNull(from, "from");
    record Keyed<T>(T server, double km) {}
    List<Keyed<T>> keyed = new ArrayList<>(servers.size());
    for (T s : servers) {
      Place p = location.apply(s);
      keyed.add(new Keyed<>(s, p == null ? Double.POSITIVE_INFINITY : GreatCircle.km(from.lat(), from.lon(), p.lat(), p.lon())));
    }
    keyed.sort(Comparator.comparingDouble(Keyed::km));   // stable: ties and the unlocated keep list order
    return keyed.stream().map(Keyed::server).toList();
  }

  /**
   * One probe's outcome as it arrived.
   *
   * @param index position of the probe in the list (the probe order)
   * @param rttMs measured RTT, NaN when the probe got no reply
   * @param probesSent probes sent when the outcome arrived
   * @param seconds time from the start of discovery to its arrival
   */
  record Outcome(int index, double rttMs, int probesSent, double seconds) {
    boolean answered() {
      return Double.isFinite(rttMs);
    }
  }

  /**
   * Where the stop rule ended the discovery.
   *
   * @param probes probes sent when it stopped (those still in flight included, as the SDK counts them)
   * @param seconds time of the decision
   * @param found replies that had arrived by then, in arrival order
   * @param timeouts probes known unanswered by then
   * @param reason "stop_rule", or "list_done" when the list ran out first
   */
  record Stop(int probes, double seconds, List<Outcome> found, int timeouts, String reason) {}

  /**
   * Feeds {@code arrivals} (every probe of a list of {@code listSize}, in arrival order) to
   * {@code policy} in probe order, as the client SDK does, and stops at the arrival that lets the
   * policy say stop.
   *
   * @throws IllegalArgumentException an index outside the list or reported twice
   */
  static Stop replay(List<Outcome> arrivals, int listSize, AutoStopPolicy policy) {
    Outcome[] byIndex = new Outcome[listSize];
    List<Outcome> found = new ArrayList<>();
    int timeouts = 0;
    int observed = 0;
    Outcome last = null;
    for (Outcome o : arrivals) {
      if (o.index() < 0 || o.index() >= listSize) {
        throw new IllegalArgumentException("probe index " + o.index() + " outside a list of " + listSize);
      }
      if (byIndex[o.index()] != null) throw new IllegalArgumentException("probe " + o.index() + " reported twice");
      byIndex[o.index()] = o;
      last = o;
      if (o.answered()) found.add(o);
      else timeouts++;
      while (observed < listSize && byIndex[observed] != null) {
        if (policy.observe(Double.NaN, byIndex[observed++].rttMs())) {
          return new Stop(o.probesSent(), o.seconds(), List.copyOf(found), timeouts, "stop_rule");
        }
      }
    }
    return new Stop(listSize, last == null ? 0 : last.seconds(), List.copyOf(found), timeouts, "list_done");
  }
}
