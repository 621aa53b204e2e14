package dev.reed.testbed.emulated;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;

/**
 * One emulated game server.
 *
 * @param host its host index in the {@link dev.reed.testbed.world.World}
 * @param address where it answers (the host's loopback address)
 * @param protocol the one query protocol it speaks
 * @param info what it says about itself
 */
public record EmulatedServer(int host, InetSocketAddress address, GameProtocol protocol, ServerInfo info) {}
