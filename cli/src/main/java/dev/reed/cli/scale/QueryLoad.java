package dev.reed.cli.scale;

import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.ReedServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * GetOrderedServers at a fixed rate while ingest runs (open loop: a request is sent when it is due,
 * whether or not earlier ones came back, and its latency counts from when it was due, so a stall
 * shows in the tail instead of slowing the load; Tene's "coordinated omission"). Requests go round
 * robin to the replicas given, a page of {@code pageSize} servers each with their landmark RTTs in
 * the compact form the SDK asks for, clients at random coordinates of the embedding's range. The
 * responses are counted, not parsed: the harness shares the cores with the broker and the
 * replicas, and parsing 1,000 pages a second would cost it more than the replicas spend serving
 * them (a real client parses on its own machine).
 */
final class QueryLoad implements AutoCloseable {
  /** One measuring window: latencies in ns, sorted. */
  record Window(long[] sortedNanos, long errors, double seconds) {
    long requests() {
      return sortedNanos.length;
    }

    /** The q-quantile in ms, NaN without requests. */
    double quantileMs(double q) {
      if (sortedNanos.length == 0) return Double.NaN;
      return sortedNanos[Math.min(sortedNanos.length - 1, (int) (sortedNanos.length * q))] / 1e6;
    }

    double rate() {
      return seconds > 0 ? sortedNanos.length / seconds : Double.NaN;
    }

    static Window merge(java.util.List<Window> ws) {
      long[] all = ws.stream().flatMapToLong(w -> java.util.Arrays.stream(w.sortedNanos)).sorted().toArray();
      return new Window(all, ws.stream().mapToLong(Window::errors).sum(), ws.stream().mapToDouble(Window::seconds).sum());
    }
  }

  private final List<ManagedChannel> channels = new ArrayList<>();
  /** GetOrderedServers with the response left as bytes. */
  private static final MethodDescriptor<GetOrderedServersRequest, byte[]> UNPARSED = ReedServiceGrpc.getGetOrderedServersMethod()
      .toBuilder(ProtoUtils.marshaller(GetOrderedServersRequest.getDefaultInstance()), dev.reed.proto.EncodedMessages.MARSHALLER)
      .build();
  private final GetOrderedServersRequest[] requests = new GetOrderedServersRequest[1024];
  private final double ratePerSecond;
  private final Thread thread;
  private final Object lock = new Object();
  private long[] latencies = new long[1 << 16];
  private int count;
  private final AtomicLong errors = new AtomicLong();
  private volatile String firstError = "";
  private long windowStart = System.nanoTime();
  private volatile long measureFrom = Long.MAX_VALUE;
  private final long warmupNanos;
  private volatile boolean closed;

  /**
   * @param warmup requests due in the first {@code warmup} after {@link #start} are sent but not
   *     measured: the replicas' ranking path is cold (class loading, JIT) and on a busy machine
   *     takes seconds to warm
   */
  QueryLoad(List<String> targets, double ratePerSecond, int pageSize, int dims, java.time.Duration warmup) {
    this.ratePerSecond = ratePerSecond;
    this.warmupNanos = warmup.toNanos();
    for (String t : targets) {
      ManagedChannel ch = ManagedChannelBuilder.forTarget(t).usePlaintext().build();
      channels.add(ch);
    }
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < requests.length; i++) {
      Coordinate.Builder c = Coordinate.newBuilder();
      for (int k = 0; k < dims; k++) c.addComponents(r.nextDouble(-80, 80));
      requests[i] = GetOrderedServersRequest.newBuilder().setClient(c).setPageSize(pageSize).setCompactLandmarkRtts(true)
          .build();
    }
    thread = Thread.ofPlatform().name("query-load").daemon().unstarted(this::run);
  }

  void start() {
    synchronized (lock) {
      measureFrom = System.nanoTime() + warmupNanos;
      windowStart = measureFrom;
    }
    thread.start();
  }

  private void run() {
    long interval = (long) (1e9 / ratePerSecond);
    long due = System.nanoTime();
    long i = 0;
    while (!closed) {
      long wait = due - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      }
      long sentDue = due;
      ClientCalls.asyncUnaryCall(channels.get((int) (i % channels.size()))
              .newCall(UNPARSED, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS)),
          requests[(int) (i & 1023)], new StreamObserver<byte[]>() {
            @Override
            public void onNext(byte[] value) {}

            @Override
            public void onError(Throwable t) {
              if (sentDue >= measureFrom && errors.incrementAndGet() == 1) {
                firstError = io.grpc.Status.fromThrowable(t).toString(); // the kind of failure, for the report
              }
            }

            @Override
            public void onCompleted() {
              if (sentDue >= measureFrom) record(System.nanoTime() - sentDue);
            }
          });
      i++;
      due += interval;
    }
  }

  private void record(long nanos) {
    synchronized (lock) {
      if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
      latencies[count++] = nanos;
    }
  }

  /** The first measured request's failure (gRPC status), empty if none failed. */
  String firstError() {
    return firstError;
  }

  /** The figures since the last call (or the start), and a new window. */
  Window take() {
    long[] l;
    double secs;
    synchronized (lock) {
      l = Arrays.copyOf(latencies, count);
      count = 0;
      long now = System.nanoTime();
      secs = Math.max(0, now - windowStart) / 1e9;
      windowStart = Math.max(now, measureFrom);
    }
    Arrays.sort(l);
    return new Window(l, errors.getAndSet(0), secs);
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.interrupt();
    thread.join(2000);
    for (ManagedChannel ch : channels) ch.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
  }
}
