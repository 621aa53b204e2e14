package dev.reed.client.readme;

import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.Filter;
import dev.reed.client.ReedClient;
import dev.reed.client.ReedClientException;
import dev.reed.client.StopRule;
import java.time.Duration;

/** Lists the game servers closest to this machine: java NearbyServers reed.example.net:7400 */
public final class NearbyServers {
  public static void main(String[] args) {
    try (ReedClient client = ReedClient.builder()
        .coordinator(args[0])                    // the coordinator's gRPC address
        .rate(140)                               // probes per second (the paper's DSL setting)
        .rpcDeadline(Duration.ofSeconds(3))      // every coordinator call has a deadline
        .build()) {
      DiscoveryRequest request = DiscoveryRequest.defaults()
          .withFilter(Filter.none().withGame("baseoa").withNotFull(true))
          .withStop(StopRule.intelligent(5));    // the 5 closest, Algorithm 6
      DiscoveryResult result = client.discover(request, event -> {
        if (event instanceof DiscoveryEvent.ServerFound found) {   // live, as replies arrive
          System.out.printf("found %s at %.1f ms%n", found.server().name(), found.server().rttMs());
        }
      });
      for (DiscoveredServer s : result.closest(5)) {
        System.out.printf("%-24s %-10s %2d/%-2d %6.1f ms  %s%n",
            s.name(), s.map(), s.players(), s.maxPlayers(), s.rttMs(), s.key());
      }
      System.out.printf("%d probes in %.2f s%n", result.probes(), result.seconds());
    } catch (ReedClientException e) {           // coordinator down or garbage, too few replies
      System.err.println("discovery failed: " + e.getMessage());
    }
  }
}
