package dev.reed.testbed.world;

import dev.reed.probe.responder.ReplyDelay;
import dev.reed.testbed.relay.DelayingUdpRelay;
import dev.reed.testbed.relay.PathDelay;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * An emulated world: a latency model whose hosts each own a loopback address, plus per-probe
 * noise. Kernel network emulation is unavailable here (docs/design.md section 5), so whoever answers
 * a datagram (an emulated game server, a landmark's beacon, the relay in front of a real
 * OpenArena server) looks up the sender's address here and delays its answer by the model's RTT
 * between the two hosts. Probers therefore see the world's latencies over real sockets, as the
 * REED paper's landmarks and clients saw the Internet's (Armitage &amp; Heyde, TOMCCAP 2011).
 *
 * <p>A datagram from an address outside the world (e.g. a tool on 127.0.0.1) has no host:
 * {@link #indexOf} answers -1 and the delay adapters add no delay to it; give such tools a
 * world address ({@code quakestat -srcip}) to see the world.
 *
 * <p>Immutable and thread-safe; sampling takes the caller's random generator.
 */
public final class World {
  /** The reply delay for a pair without a path: beyond every probe timeout in the project. */
  public static final Duration UNREACHABLE_DELAY = Duration.ofSeconds(10);
  private final LatencyModel model;
  private final AddressPlan plan;
  private final Noise noise;

  public World(LatencyModel model, AddressPlan plan, Noise noise) {
    this.model = Objects.requireNonNull(model, "model");
    this.plan = Objects.requireNonNull(plan, "plan");
    this.noise = Objects.requireNonNull(noise, "noise");
    if (model.size() > plan.capacity()) {
      throw new IllegalArgumentException(model.size() + " hosts do not fit the address plan (" + plan.capacity() + ")");
    }
  }

  /** The model on {@link AddressPlan#DEFAULT} without noise. */
  public static World of(LatencyModel model) {
    return new World(model, AddressPlan.DEFAULT, Noise.NONE);
  }

  public World withNoise(Noise n) {
    return new World(model, plan, n);
  }

  public LatencyModel model() {
    return model;
  }

  public AddressPlan plan() {
    return plan;
  }

  public Noise noise() {
    return noise;
  }

  public int size() {
    return model.size();
  }

  public Host host(int index) {
    return model.host(index);
  }

  /** The loopback address host {@code index} binds. */
  public Inet4Address address(int index) {
    Objects.checkIndex(index, model.size());
    return plan.address(index);
  }

  /** The host bound to {@code address}, or -1 when it is not in this world. */
  public int indexOf(InetAddress address) {
    int i = plan.indexOf(address);
    return i < model.size() ? i : -1;
  }

  /** Base RTT in ms between two hosts (NaN where the model has none). */
  public double rttMs(int from, int to) {
    return model.rttMs(from, to);
  }

  /** One probe's RTT in ms: base plus jitter, NaN when lost or the pair is unreachable. */
  public double sampleRttMs(int from, int to, RandomGenerator rng) {
    return noise.sample(model.rttMs(from, to), rng);
  }

  /**
   * One direction of a path in ms: half the base RTT plus jitter with half the mean (so two
   * directions add up to {@link #sampleRttMs} on average), NaN when lost; each direction is lost
   * with probability {@code 1 - sqrt(1 - lossRate)} so a round trip is lost with {@code lossRate}.
   */
  public double sampleOneWayMs(int from, int to, RandomGenerator rng) {
    double base = model.rttMs(from, to);
    if (Double.isNaN(base)) {
      return Double.NaN;
    }
    if (noise.lossRate() > 0 && rng.nextDouble() < 1 - Math.sqrt(1 - noise.lossRate())) {
      return Double.NaN;
    }
    double jitter = noise.jitterMeanMs() > 0 ? -noise.jitterMeanMs() / 2 * Math.log1p(-rng.nextDouble()) : 0;
    return base / 2 + jitter;
  }

  /**
   * The path delay a {@link dev.reed.testbed.relay.DelayingUdpRelay} needs to put a real server
   * at host {@code serverHost}: each direction delayed by {@link #sampleOneWayMs} between the
   * client's host and the server's; null (the relay drops the datagram) when lost; no delay for
   * clients outside the world.
   */
  public PathDelay pathDelayTo(int serverHost, long seed) {
    Objects.checkIndex(serverHost, model.size());
    SplittableRandom rng = new SplittableRandom(seed);
    return client -> {
      int c = indexOf(client.getAddress());
      if (c < 0) {
        return Duration.ZERO;
      }
      double ms;
      synchronized (rng) {
        ms = sampleOneWayMs(c, serverHost, rng);
      }
      return Double.isNaN(ms) ? null : Duration.ofNanos(Math.round(ms * 1e6));
    };
  }

  /**
   * Puts a real server (e.g. an {@link dev.reed.testbed.openarena.OpenArenaServer} on 127.0.0.1)
   * at host {@code host} of this world: a relay listening on the host's address and {@code port}
   * (0 = any) forwards to {@code upstream}, delaying each direction per {@link #pathDelayTo}.
   * Probers on world addresses then see the model's RTT plus the real server's own.
   */
  public DelayingUdpRelay relay(int host, int port, InetSocketAddress upstream, long seed) throws IOException {
    return DelayingUdpRelay.start(new InetSocketAddress(address(host), port), upstream, pathDelayTo(host, seed));
  }

  /**
   * How long something at {@code host} (typically a landmark agent's beacon, the probe module's
   * {@code GameQueryResponder}) holds its reply to a prober: the sampled RTT between the
   * prober's host and {@code host}, with the world's jitter; no delay for probers outside the
   * world. The responder always answers, so this cannot express loss: a lost sample is
   * resampled, and a pair the model cannot reach at all gets {@link #UNREACHABLE_DELAY}, longer
   * than any probe timeout (the prober sees a timeout). Put the beacon behind {@link #relay} to
   * emulate loss.
   */
  public ReplyDelay replyDelayFor(int host, long seed) {
    Objects.checkIndex(host, model.size());
    SplittableRandom rng = new SplittableRandom(seed);
    Noise jitterOnly = new Noise(noise.jitterMeanMs(), 0);
    return from -> {
      int p = indexOf(from.getAddress());
      if (p < 0) {
        return Duration.ZERO;
      }
      double ms;
      synchronized (rng) {
        ms = jitterOnly.sample(model.rttMs(p, host), rng);
      }
      return Double.isNaN(ms) ? UNREACHABLE_DELAY : Duration.ofNanos(Math.round(ms * 1e6));
    };
  }
}
