package dev.reed.eval;

import dev.reed.coordinates.clustering.ClusterConfig;
import dev.reed.coordinates.clustering.ClusterOrder;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The baselines beside REED, on one landmark seed: the same clients, server lists,
 * landmarks and truth REED had, every order scored by {@link SequenceScore} as REED's is, probes
 * counted the same way (a static order's probes are its positions, plus the calibration probes
 * the method made). Which rows exist depends on the data: geographic ones need locations, the
 * clusterings need countries or AS numbers.
 */
final class Baselines {
  /** The clustering baselines' parameters: the SDK fallback's defaults. */
  static final ClusterConfig CLUSTERING = ClusterConfig.defaults();

  /** Method keys in report order, with their labels. */
  static final Map<String, String> LABELS = labels();

  private static Map<String, String> labels() {
    Map<String, String> l = new LinkedHashMap<>();
    l.put("reed", "reed");
    l.put("fusedZero", "reed's zero-probe ranking: the geographic prediction from the client's location, no probes");
    l.put("geoExact", "great-circle distance between the true locations, no probes");
    l.put("geoNoisy", "the same between GeoIP-like locations of client and servers (--geo-error)");
    l.put("relay", "Valve's relay estimate (min over landmarks of rtt(c,l) + rtt(l,s))");
    l.put("clusterCountry", "Armitage's clustering by country (" + CLUSTERING.probesPerCluster() + " probes per cluster)");
    l.put("clusterAs", "Armitage's clustering by origin AS (" + CLUSTERING.probesPerCluster() + " probes per cluster)");
    l.put("gnp", "straightforward GNP (random landmarks, plain LM, every landmark calibrates, the served order)");
    return java.util.Collections.unmodifiableMap(l);
  }

  /** One method's clients on one seed, and its pooled relative errors (empty when it predicts no RTT). */
  record MethodRun(List<MethodOutcome> clients, double[] relErrors) {}

  private final RttMatrix m;
  private final EvalSettings s;
  private final SequenceScore score;
  private final Consumer<String> progress;

  /** @param progress where a line about each seed's fused estimator goes */
  Baselines(RttMatrix m, EvalSettings s, Consumer<String> progress) {
    this.m = m;
    this.s = s;
    this.score = new SequenceScore(s);
    this.progress = progress;
  }

  /** Every static baseline the data allow, for REED's clients of this seed. */
  Map<String, MethodRun> run(SeedRun.Output o) {
    NodeTable nodes = m.nodes();
    Map<String, Method> methods = new LinkedHashMap<>();
    if (nodes.hasLocations()) {
      GeoPoint[] exact = new GeoPoint[nodes.size()];
      for (int v = 0; v < exact.length; v++) {
        exact[v] = nodes.node(v).location();
      }
      GeoPoint[] noisy = s.geoError().displace(nodes, o.seed());
      for (int l : o.landmarks()) {
        noisy[l] = exact[l]; // the deployment's own machines: placed, not looked up
      }
      FusedEstimator fused = o.located().estimator();
      progress.accept(String.format(java.util.Locale.ROOT, "seed %d fused estimator: %.2f + %.4f ms/km, weights geo %.2f"
          + " coordinates %.2f relay %.2f, cross-validated error %.3f over %d landmarks", o.seed(), fused.prior().model().global().interceptMs(),
          fused.prior().model().global().msPerKm(), fused.weights().geo(), fused.weights().coordinate(),
          fused.weights().relay(), fused.cvError(), fused.folds()));
      Place[] believed = o.located().believed();
      methods.put("fusedZero", new ZeroProbeOrder(fused, o.servers(), believed)::order);
      methods.put("geoExact", new GeoDistance(exact, DistanceLine.fit(exact, o.landmarks(), o.servers(), o.landmarkRtt()))::order);
      if (!s.geoError().isNone()) {
        methods.put("geoNoisy", new GeoDistance(noisy, DistanceLine.fit(noisy, o.landmarks(), o.servers(), o.landmarkRtt()))::order);
      }
    }
    methods.put("relay", new RelayEstimate()::order);
    if (nodes.hasCountries()) {
      methods.put("clusterCountry", new ClusterBaseline(v -> ClusterOrder.countryLabel(nodes.node(v).country()), CLUSTERING)::order);
    }
    if (nodes.hasAsns()) {
      methods.put("clusterAs", new ClusterBaseline(v -> ClusterOrder.asLabel(nodes.node(v).asn()), CLUSTERING)::order);
    }
    Map<String, List<MethodOutcome>> outcomes = new LinkedHashMap<>();
    Map<String, List<double[]>> errors = new LinkedHashMap<>();
    methods.keySet().forEach(k -> {
      outcomes.put(k, new ArrayList<>());
      errors.put(k, new ArrayList<>());
    });
    for (ClientResult r : o.clients()) {
      ClientView c = view(o, r.client());
      for (Map.Entry<String, Method> e : methods.entrySet()) {
        StaticOrder order = e.getValue().order(c);
        if (order != null) {
          outcomes.get(e.getKey()).add(score(c, order));
          if (order.predictsRtt()) {
            errors.get(e.getKey()).add(relativeErrors(c.actual(), order.predictedMs()));
          }
        }
      }
    }
    Map<String, MethodRun> out = new LinkedHashMap<>();
    for (String k : methods.keySet()) {
      out.put(k, new MethodRun(outcomes.get(k),
          errors.get(k).stream().flatMapToDouble(java.util.Arrays::stream).toArray()));
    }
    return out;
  }

  /** A baseline: the order it gives one client, or null when it cannot serve that client. */
  @FunctionalInterface
  interface Method {
    StaticOrder order(ClientView c);
  }

  private ClientView view(SeedRun.Output o, int client) {
    int[] servers = java.util.Arrays.stream(o.servers()).filter(v -> v != client).toArray();
    double[] actual = new double[servers.length];
    for (int j = 0; j < servers.length; j++) {
      actual[j] = m.rtt(client, servers[j]);
    }
    return new ClientView(m, client, servers, actual, o.landmarks(), o.landmarkRtt(), o.seed());
  }

  /** Scores a static order: each server costs one probe in its turn unless calibration measured it. */
  MethodOutcome score(ClientView c, StaticOrder order) {
    int ns = order.order().length;
    double[] pred = new double[ns];
    double[] rtt = new double[ns];
    int[] probesAt = new int[ns];
    int probes = order.calibrationProbes();
    for (int k = 0; k < ns; k++) {
      int j = order.order()[k];
      if (!order.calibrated()[j]) {
        probes++;
      }
      probesAt[k] = probes;
      pred[k] = order.predictedMs()[j];
      rtt[k] = c.actual()[j];
    }
    SequenceScore.Truth truth = score.truth(c.actual());
    return new MethodOutcome(c.client(), order.calibrationProbes(), score.precisionAtNClose(rtt, truth),
        score.allNearestSeen(rtt, probesAt, truth, probes),
        score.policies(pred, rtt, probesAt, order.calibrationProbes(), truth));
  }

  private static double[] relativeErrors(double[] actual, double[] predicted) {
    double[] rel = new double[actual.length];
    int n = 0;
    for (int j = 0; j < actual.length; j++) {
      if (Double.isFinite(actual[j]) && actual[j] > 0 && Double.isFinite(predicted[j])) {
        rel[n++] = Math.abs(predicted[j] - actual[j]) / actual[j];
      }
    }
    return java.util.Arrays.copyOf(rel, n);
  }
}
