package dev.reed.eval;

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
    Files.writeString(out.resolve("report.md"), new Report(m, s).render(r, sweep), StandardCharsets.UTF_8);
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
    Json j = new Json();
    j.begin();
    j.field("matrix").object();
    j.field("nodes").value(m.size());
    j.end();
    j.field("settings").object();
    j.field("dimensions").value(s.coordinates().dimensions());
    j.field("height").value(s.coordinates().height());
    j.field("robustThreshold").value(s.coordinates().robustThreshold());
    j.field("landmarks").value(s.landmarkList() != null ? s.landmarkList().length : s.landmarks());
    j.field("landmarkStrategy").value(s.landmarkList() != null ? "listed" : s.strategy().name().toLowerCase(Locale.ROOT));
    j.field("clients").value(s.clients().name().toLowerCase(Locale.ROOT));
    j.field("nClose").value(s.nClose());
    j.field("window").value(s.window());
    j.field("rate").value(s.rate());
    j.field("calibration").value(s.calibration());
    j.field("calibrationSpread").value(s.calibrationSpread());
    j.field("reposition").value(s.reposition());
    j.field("comparison").value(s.comparison());
    j.field("lowerBoundBeyondMs").value(s.lowerBoundBeyondMs());
    j.field("nearDifferenceWeight").value(s.nearDifferenceWeight());
    j.field("kmedoidsCapMs").value(s.kmedoidsCapMs());
    j.field("seed").value(s.seed());
    j.field("seeds").value(s.seeds());
    j.end();
    j.field("overall").object();
    for (Map.Entry<String, Double> e : r.overall().entrySet()) {
      j.field(e.getKey()).value(e.getValue());
    }
    j.end();
    j.field("perSeed").array();
    for (int i = 0; i < r.perSeed().size(); i++) {
      j.object();
      j.field("seed").value(s.seed() + i);
      j.field("landmarkNodes").array();
      for (long l : r.seedLandmarks().get(i)) {
        j.value(l);
      }
      j.end();
      for (Map.Entry<String, Double> e : r.perSeed().get(i).entrySet()) {
        j.field(e.getKey()).value(e.getValue());
      }
      j.end();
    }
    j.end();
    j.field("clients").array(); // first seed
    for (ClientResult c : r.first().clients()) {
      j.object();
      j.field("client").value(c.client());
      j.field("calibrationProbes").value(c.calibrationProbes());
      j.field("relErrMedian").value(c.relErrMedian());
      j.field("relErrP90").value(c.relErrP90());
      j.field("spearman").value(c.spearman());
      j.field("precisionAt10").value(c.precisionAt10());
      j.field("optimalMeanMs").value(c.optimalMeanMs());
      j.field("allNearestSeen").value(c.allNearestSeen());
      j.field("allNearestSeenRandom").value(c.randomAllNearestSeen());
      j.field("policies").object();
      for (Map.Entry<String, PolicyOutcome> e : c.policies().entrySet()) {
        PolicyOutcome p = e.getValue();
        j.field(e.getKey()).object();
        j.field("probes").value(p.probes());
        j.field("seconds").value(p.probes() / s.rate());
        j.field("foundMeanMs").value(p.foundMeanMs());
        j.field("foundMedianMs").value(p.foundMedianMs());
        j.field("precision").value(p.precision());
        if (p.playableTotal() >= 0) {
          j.field("playableFound").value(p.playableFound());
          j.field("playableTotal").value(p.playableTotal());
        }
        j.end();
      }
      j.end();
      j.end();
    }
    j.end();
    if (sweep != null) {
      j.field("sweep").object();
      j.field("seeds").value(sweep.seeds());
      j.field("relErrMedianByModel").object();
      for (Map.Entry<String, double[]> e : sweep.relErrorsByModel().entrySet()) {
        j.field(e.getKey()).value(Ranks.quantileOf(e.getValue(), 0.5));
      }
      j.end();
      j.field("relErrByLandmarks").object();
      for (Map.Entry<Integer, double[]> e : sweep.byLandmarks().entrySet()) {
        j.field(Integer.toString(e.getKey())).object();
        j.field("median").value(e.getValue()[0]);
        j.field("p90").value(e.getValue()[1]);
        j.end();
      }
      j.end();
      j.end();
    }
    j.finish();
    Files.writeString(out.resolve("results.json"), j.toString(), StandardCharsets.UTF_8);
  }

  /** A minimal streaming JSON writer (NaN and infinities become null). */
  static final class Json {
    private final StringBuilder sb = new StringBuilder();
    /** An open container: its closing character and whether nothing has been written in it yet. */
    private static final class Frame {
      final char close;
      boolean first = true;

      Frame(char close) {
        this.close = close;
      }
    }

    private final java.util.ArrayDeque<Frame> open = new java.util.ArrayDeque<>();
    private boolean afterField;

    void begin() {
      sb.append('{');
      open.push(new Frame('}'));
    }

    Json field(String name) {
      comma();
      quote(name);
      sb.append(':');
      afterField = true;
      return this;
    }

    Json object() {
      comma();
      sb.append('{');
      open.push(new Frame('}'));
      return this;
    }

    Json array() {
      comma();
      sb.append('[');
      open.push(new Frame(']'));
      return this;
    }

    void end() {
      sb.append(open.pop().close);
    }

    void value(double v) {
      comma();
      sb.append(Double.isFinite(v) ? (v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
          : String.format(Locale.ROOT, "%.6g", v)) : "null");
    }

    void value(long v) {
      comma();
      sb.append(v);
    }

    void value(boolean v) {
      comma();
      sb.append(v);
    }

    void value(String v) {
      comma();
      quote(v);
    }

    void finish() {
      end();
      sb.append('\n');
    }

    private void comma() {
      if (afterField) {
        afterField = false;
        return;
      }
      Frame f = open.peek();
      if (f == null) {
        return;
      }
      if (!f.first) {
        sb.append(',');
      }
      f.first = false;
    }

    private void quote(String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> sb.append("\\\"");
          case '\\' -> sb.append("\\\\");
          default -> {
            if (c < 0x20) {
              sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
              sb.append(c);
            }
          }
        }
      }
      sb.append('"');
    }

    @Override
    public String toString() {
      return sb.toString();
    }
  }
}
