package dev.reed.client;

import dev.reed.proto.v1.GameProtocol;
import java.net.InetSocketAddress;

/**
 * A server of a zero-probe ranking ({@link ReedClient#rankByLocation}): where it is and what the
 * coordinator predicts from the client's location alone, without a probe.
 *
 * @param predictedMs the predicted RTT (ms)
 * @param uncertaintyMs the coordinator's uncertainty of that prediction (ms; NaN when unknown)
 * @param country the server's country code from the coordinator's database, empty when unknown
 */
public record PredictedServer(InetSocketAddress address, GameProtocol protocol, double predictedMs, double uncertaintyMs,
    String country) {}
