package dev.reed.eval;

import dev.reed.coordinates.Stats;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Writes results.json, report.md, orders.csv, coordinates.csv and the plots. */
final class OutputWriter {
  private final RttMatrix m;
  private final EvalSettings s;
  private final Path out;

  OutputWriter(RttMatrix m, EvalSettings s, Path out) {
    this.m = m;
    this.s = s;
    this.out = out;
  }

  void write(Evaluation.Result r, Evaluation.Sweep sweep) throws IOException {
    writeJson(r, sweep);
    writeOrders(r.first());
    writeCoordinates(r.first());
    Files.writeString(out.resolve("report.md"), new PaperTables(m, s).render(r, sweep), StandardCharsets.UTF_8);
    new Plots(s).write(out, r, sweep);
  }

  private void writeOrders(SeedRun.Output o) throws IOException {
    try (Writer w = Files.newBufferedWriter(out.resolve("orders.csv"), StandardCharsets.UTF_8)) {
      w.write("client,rank,server,predicted_ms,calib_probes\n");
      Map<Integer, ClientResult> byClient = new java.util.HashMap<>();
      o.clients().forEach(c -> byClient.put(c.client(), c));
      for (Map.Entry<Integer, SeedRun.Sequence> e : o.sequences().entrySet()) {
        SeedRun.Sequence q = e.getValue();
        int calib = byClient.get(e.getKey()).calibrationProbes();
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < q.servers().length; k++) {
          sb.setLength(0);
          sb.append(e.getKey()).append(',').append(k + 1).append(',').append(q.servers()[k]).append(',')
              .append(String.format(Locale.ROOT, "%.3f", q.predicted()[k])).append(',').append(calib).append('\n');
          w.write(sb.toString());
        }
      }
    }
  }

  private void writeCoordinates(SeedRun.Output o) throws IOException {
    int d = s.coordinates().dimensions();
    boolean h = s.coordinates().height();
    boolean[] isLm = new boolean[m.size()];
    for (int l : o.landmarks()) {
      isLm[l] = true;
    }
    try (Writer w = Files.newBufferedWriter(out.resolve("coordinates.csv"), StandardCharsets.UTF_8)) {
      StringBuilder head = new StringBuilder("node,role");
      for (int k = 1; k <= d; k++) {
        head.append(",c").append(k);
      }
      if (h) {
        head.append(",height");
      }
      w.write(head.append('\n').toString());
      for (int v = 0; v < m.size(); v++) {
        if (o.coords()[v] == null) {
          continue;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(v).append(',').append(isLm[v] ? "landmark" : "server");
        for (int k = 0; k < d; k++) {
          sb.append(',').append(String.format(Locale.ROOT, "%.4f", o.coords()[v].component(k)));
        }
        if (h) {
          sb.append(',').append(String.format(Locale.ROOT, "%.4f", o.coords()[v].height()));
        }
        w.write(sb.append('\n').toString());
      }
    }
  }

  private void writeJson(Evaluation.Result r, Evaluation.Sweep sweep) throws IOException {
    try (Writer file = Files.newBufferedWriter(out.resolve("results.json"), StandardCharsets.UTF_8);
        JsonWriter j = new JsonWriter(file)) {
      j.beginObject();
      j.name("matrix").beginObject().name("nodes").value(m.size())
          .name("locatedNodes").value(m.nodes().nodes().stream().filter(v -> v.location() != null).count()).endObject();
      j.name("settings").beginObject();
      j.name("dimensions").value(s.coordinates().dimensions());
      j.name("height").value(s.coordinates().height());
      number(j.name("robustThreshold"), s.coordinates().robustThreshold());
      j.name("landmarks").value(s.landmarkList() != null ? s.landmarkList().length : s.landmarks());
      j.name("landmarkStrategy")
          .value(s.landmarkList() != null ? "listed" : s.strategy().name().toLowerCase(Locale.ROOT));
      j.name("clients").value(s.clients().name().toLowerCase(Locale.ROOT));
      j.name("nClose").value(s.nClose());
      j.name("window").value(s.window());
      number(j.name("windowMarginMs"), s.windowMarginMs());
      number(j.name("rate"), s.rate());
      j.name("pageSize").value(s.pageSize());
      j.name("model").beginObject();
      java.util.Properties model = s.model().toProperties();
      for (String key : new java.util.TreeSet<>(model.stringPropertyNames())) {
        j.name(key).value(model.getProperty(key));
      }
      j.endObject();
      number(j.name("kmedoidsCapMs"), s.kmedoidsCapMs());
      j.name("seed").value(s.seed());
      j.name("seeds").value(s.seeds());
      j.name("baselines").value(s.baselines());
      j.name("geoError").value(s.geoError().toString());
      j.name("estimator").beginObject();
      java.util.Properties estimator = s.estimator().toProperties();
      for (String key : new java.util.TreeSet<>(estimator.stringPropertyNames())) {
        j.name(key).value(estimator.getProperty(key));
      }
      j.endObject();
      j.endObject();
      j.name("overall");
      numbers(j, r.overall());
      if (!r.methods().isEmpty()) {
        j.name("baselines").beginObject(); // "reed" is REED's row, summarised as the baselines are
        for (Map.Entry<String, Map<String, Double>> e : r.methods().entrySet()) {
          j.name(e.getKey()).beginObject();
          j.name("label").value(Baselines.LABELS.get(e.getKey()));
          for (Map.Entry<String, Double> v : e.getValue().entrySet()) {
            number(j.name(v.getKey()), v.getValue());
          }
          j.endObject();
        }
        j.endObject();
      }
      j.name("perSeed").beginArray();
      for (int i = 0; i < r.perSeed().size(); i++) {
        j.beginObject();
        j.name("seed").value(s.seed() + i);
        j.name("landmarkNodes").beginArray();
        for (long l : r.seedLandmarks().get(i)) {
          j.value(l);
        }
        j.endArray();
        for (Map.Entry<String, Double> e : r.perSeed().get(i).entrySet()) {
          number(j.name(e.getKey()), e.getValue());
        }
        j.endObject();
      }
      j.endArray();
      j.name("clients").beginArray(); // first seed
      for (ClientResult c : r.first().clients()) {
        j.beginObject();
        j.name("client").value(c.client());
        j.name("calibrationProbes").value(c.calibrationProbes());
        number(j.name("relErrMedian"), c.relErrMedian());
        number(j.name("relErrP90"), c.relErrP90());
        number(j.name("spearman"), c.spearman());
        number(j.name("precisionAt10"), c.precisionAt10());
        number(j.name("optimalMeanMs"), c.optimalMeanMs());
        number(j.name("nearestLandmarkMs"), c.nearestLandmarkMs());
        j.name("allNearestSeen").value(c.allNearestSeen());
        j.name("allNearestSeenRandom").value(c.randomAllNearestSeen());
        j.name("policies").beginObject();
        for (Map.Entry<String, PolicyOutcome> e : c.policies().entrySet()) {
          PolicyOutcome p = e.getValue();
          j.name(e.getKey()).beginObject();
          j.name("probes").value(p.probes());
          number(j.name("seconds"), p.probes() / s.rate());
          number(j.name("foundMeanMs"), p.foundMeanMs());
          number(j.name("foundMedianMs"), p.foundMedianMs());
          number(j.name("precision"), p.precision());
          if (p.playableTotal() >= 0) {
            j.name("playableFound").value(p.playableFound());
            j.name("playableTotal").value(p.playableTotal());
          }
          j.endObject();
        }
        j.endObject();
        j.endObject();
      }
      j.endArray();
      if (sweep != null) {
        j.name("sweep").beginObject();
        j.name("seeds").value(sweep.seeds());
        j.name("relErrMedianByModel").beginObject();
        for (Map.Entry<String, double[]> e : sweep.relErrorsByModel().entrySet()) {
          number(j.name(e.getKey()), Stats.quantileOf(e.getValue(), 0.5));
        }
        j.endObject();
        j.name("relErrByLandmarks").beginObject();
        for (Map.Entry<Integer, double[]> e : sweep.byLandmarks().entrySet()) {
          j.name(Integer.toString(e.getKey())).beginObject();
          number(j.name("median"), e.getValue()[0]);
          number(j.name("p90"), e.getValue()[1]);
          j.endObject();
        }
        j.endObject();
        j.endObject();
      }
      j.endObject();
      file.write('\n');
    }
  }

  private static void numbers(JsonWriter j, Map<String, Double> values) throws IOException {
    j.beginObject();
    for (Map.Entry<String, Double> e : values.entrySet()) {
      number(j.name(e.getKey()), e.getValue());
    }
    j.endObject();
  }

  /** A number as analysts read it: integers without a fraction, others to 6 significant digits, NaN as null. */
  private static void number(JsonWriter j, double v) throws IOException {
    if (!Double.isFinite(v)) {
      j.nullValue();
    } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      j.value((long) v);
    } else {
      j.jsonValue(String.format(Locale.ROOT, "%.6g", v));
    }
  }
}
