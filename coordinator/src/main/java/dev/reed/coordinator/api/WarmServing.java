package dev.reed.coordinator.api;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's readiness: it turns SERVING once the index has been read to the end <em>and</em>
 * warmed ({@link IndexWarmup}), not before, so a load balancer sends it queries only when they
 * run at full speed. The warm-up runs once, on the first call to {@link #indexReady}.
 */
public final class WarmServing {
  private static final Logger log = LoggerFactory.getLogger(WarmServing.class);

  private final IndexWarmup warmup;
  private final Consumer<Boolean> serving;
  private volatile IndexWarmup.Result result;

  /** @param serving what reports readiness (the gRPC health service: {@link ApiServer#serving}) */
  public WarmServing(IndexWarmup warmup, Consumer<Boolean> serving) {
    this.warmup = warmup;
    this.serving = serving;
  }

  /** The index has been read to the end: warm it the first time, then report SERVING. One thread at a time. */
  public void indexReady() {
    if (result == null) {
      IndexWarmup.Result r = warmup.run();
      log.info("index warmed: {} ranking queries against {} servers in {} ms{}", r.queries(), r.servers(), r.took().toMillis(),
          r.complete() ? "" : " (stopped early)");
      result = r;
    }
    serving.accept(true);
  }

  /** Whether the index has been warmed (and readiness reported). */
  public boolean warmed() {
    return result != null;
  }

  /** The warm-up's figures; null before it ran. */
  public IndexWarmup.Result result() {
    return result;
  }
}
