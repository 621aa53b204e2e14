package dev.reed.cli.scale;

import dev.reed.cli.ChildJvm;
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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 *
 * <p>The load runs in a JVM of its own ({@link #main}), a small heap that barely allocates, and
 * reports each measured request on stdout: the harness JVM publishes 125,000 samples/s and its
 * young pauses (20-44 ms, ~1 % of the time at 250,000 x 30; docs/research/scale.md)
 * stopped the clock of every request in flight, a latency no real client of the replicas would
 * see. This class is the harness's side.
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

  /** The child's line for a measured request that failed: the prefix, then its gRPC status. */
  private static final String ERROR = "error ";
  /** The child's first line: its warm-up starts now. */
  private static final String STARTED = "started";

  private final List<String> command;
  private final Path log;
  private final long warmupNanos;
  private final Object lock = new Object();
  private long[] latencies = new long[1 << 16];
  private int count;
  private final AtomicLong errors = new AtomicLong();
  private volatile String firstError = "";
  private long windowStart = System.nanoTime();
  private Process process;
  private Thread reader;

  /**
   * @param warmup requests due in the first {@code warmup} after {@link #start} are sent but not
   *     measured: the replicas' ranking path is cold (class loading, JIT) and on a busy machine
   *     takes seconds to warm
   * @param log the load process's stderr (and its GC log beside it)
   */
  QueryLoad(List<String> targets, double ratePerSecond, int pageSize, int dims, java.time.Duration warmup, Path log) {
    this.warmupNanos = warmup.toNanos();
    this.log = log;
    Path gcLog = log.resolveSibling(log.getFileName().toString().replace(".log", "") + "-gc.log");
    command = ChildJvm.command(List.of("-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-Xlog:gc:file=" + gcLog + ":uptime"),
        QueryLoad.class.getName(), List.of(String.join(",", targets), Double.toString(ratePerSecond), Integer.toString(pageSize),
            Integer.toString(dims), Long.toString(warmup.toMillis())));
  }

  /** Starts the load process; what it sends in its first {@code warmup} is not measured. */
  void start() throws IOException {
    process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    reader = Thread.ofPlatform().name("query-load-reader").daemon().start(this::read);
  }

  private void read() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.equals(STARTED)) {
          synchronized (lock) {
            windowStart = System.nanoTime() + warmupNanos; // the rate counts from when the child measures, not from its JVM's start
          }
          continue;
        }
        if (line.startsWith(ERROR)) {
          if (errors.incrementAndGet() == 1) firstError = line.substring(ERROR.length());
          continue;
        }
        try {
          record(Long.parseLong(line));
        } catch (NumberFormatException e) {
          if (errors.incrementAndGet() == 1) firstError = "the load process printed: " + line;
        }
      }
    } catch (IOException e) {
      if (errors.incrementAndGet() == 1) firstError = "lost the load process: " + e;
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
      windowStart = Math.max(now, windowStart);
    }
    Arrays.sort(l);
    return new Window(l, errors.getAndSet(0), secs);
  }

  /** Closes the process's stdin (it stops sending and exits), then waits; kills it after 10 s. */
  @Override
  public void close() throws InterruptedException, IOException {
    if (process == null) return;
    process.getOutputStream().close();
    if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    reader.join(2000);
  }

  /**
   * {@code TARGETS RATE PAGE_SIZE DIMS WARMUP_MS}: sends GetOrderedServers to the comma-separated
   * gRPC targets round robin at RATE per second, prints the latency in ns of each request due after
   * the warm-up (or {@code error STATUS}) on stdout, and stops when stdin closes.
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: QueryLoad TARGETS RATE PAGE_SIZE DIMS WARMUP_MS (started by ./reed scale)");
      System.exit(2);
    }
    List<ManagedChannel> channels = new ArrayList<>();
    for (String t : args[0].split(",")) channels.add(ManagedChannelBuilder.forTarget(t).usePlaintext().build());
    double rate = Double.parseDouble(args[1]);
    int pageSize = Integer.parseInt(args[2]);
    int dims = Integer.parseInt(args[3]);
    long measureFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[4]));
    GetOrderedServersRequest[] requests = new GetOrderedServersRequest[1024];
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < requests.length; i++) {
      Coordinate.Builder c = Coordinate.newBuilder();
      for (int k = 0; k < dims; k++) c.addComponents(r.nextDouble(-80, 80));
      requests[i] = GetOrderedServersRequest.newBuilder().setClient(c).setPageSize(pageSize).setCompactLandmarkRtts(true).build();
    }
    PrintStream out = new PrintStream(new java.io.BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16),
        false, StandardCharsets.US_ASCII);
    out.println(STARTED);
    out.flush();
    Thread sender = Thread.ofPlatform().name("query-load").daemon().start(() -> send(channels, requests, rate, measureFrom, out));
    while (System.in.read() >= 0) {
      // until the harness closes our stdin (or dies)
    }
    sender.interrupt();
    sender.join(2000);
    for (ManagedChannel ch : channels) ch.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    synchronized (out) {
      out.flush();
    }
  }

  private static void send(List<ManagedChannel> channels, GetOrderedServersRequest[] requests, double rate, long measureFrom,
      PrintStream out) {
    long interval = (long) (1e9 / rate);
    long due = System.nanoTime();
    long flushed = due;
    for (long i = 0; !Thread.currentThread().isInterrupted(); i++, due += interval) {
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
              if (sentDue < measureFrom) return;
              String status = io.grpc.Status.fromThrowable(t).toString().replace('\n', ' ');
              synchronized (out) {
                out.println(ERROR + status);
              }
            }

            @Override
            public void onCompleted() {
              long nanos = System.nanoTime() - sentDue;
              if (sentDue < measureFrom) return;
              synchronized (out) {
                out.println(nanos);
              }
            }
          });
      if (due - flushed > 100_000_000L) { // the harness reads in batches; a line's content is already timed
        synchronized (out) {
          out.flush();
        }
        flushed = due;
      }
    }
  }

  /** GetOrderedServers with the response left as bytes. */
  private static final MethodDescriptor<GetOrderedServersRequest, byte[]> UNPARSED = ReedServiceGrpc.getGetOrderedServersMethod()
      .toBuilder(ProtoUtils.marshaller(GetOrderedServersRequest.getDefaultInstance()), dev.reed.proto.EncodedMessages.MARSHALLER)
      .build();
}
