package dev.reed.testbed.world;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.geo.IpLocator;
import dev.reed.geo.Location;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostLocationsCsvTest {
  @TempDir Path dir;

  @Test
  void everyEmulatedHostIsFoundWhereTheWorldPutsIt() throws IOException {
    var b = SyntheticWorldModel.builder(15);
    b.addGameServers(300);
    b.addLandmark("lm-frankfurt", Region.EU);
    b.addClient("client-tokyo", Region.AS);
    World world = World.of(b.build());
    Path file = dir.resolve("world-city.csv");
    assertThat(HostLocationsCsv.write(world, file)).isEqualTo(world.size());

    try (IpLocator geo = IpLocator.open(HostLocationsCsv.geoFiles(file))) {
      for (int i = 0; i < world.size(); i++) {
        Host h = world.host(i);
        Location l = geo.locate(world.address(i)).orElseThrow(() -> new AssertionError("no location for " + h.label()));
        assertThat(l.latitudeDeg()).as(h.label()).isEqualTo(h.lat());
        assertThat(l.longitudeDeg()).as(h.label()).isEqualTo(h.lon());
      }
      assertThat(geo.locate(world.plan().address(world.size()))).as("past the last host").isEmpty();
    }
    // a real-database locator never looks loopback addresses up, the file notwithstanding
    try (IpLocator real = IpLocator.open(dev.reed.geo.GeoFiles.of(java.util.List.of(file), java.util.List.of()))) {
      assertThat(real.locate(world.address(0))).isEmpty();
    }
  }
}
