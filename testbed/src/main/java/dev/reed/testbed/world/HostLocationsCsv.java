package dev.reed.testbed.world;

import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpRangeCsvWriter;
import dev.reed.geo.Location;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The emulated world as a geolocation database: every host with a known location, at its
 * loopback address, in the ip-location-db city CSV layout that {@code --geoip} reads. Hosts of
 * measured matrices without geography are left out, as a real database leaves out what it does
 * not know.
 */
public final class HostLocationsCsv {
  private HostLocationsCsv() {}

  /**
   * Writes {@code file} and returns how many hosts it holds.
   *
   * @throws IOException the file cannot be written
   */
  public static int write(World world, Path file) throws IOException {
    Map<InetAddress, Location> located = new LinkedHashMap<>();
    for (int i = 0; i < world.size(); i++) {
      Host h = world.host(i);
      if (Double.isFinite(h.lat()) && Double.isFinite(h.lon())) located.put(world.address(i), Location.of(h.lat(), h.lon()));
    }
    IpRangeCsvWriter.writeLocations(file, located);
    return located.size();
  }

  /**
   * What a locator reading {@code file} needs: the emulated hosts live on 127.0.0.0/8, which a
   * locator of real databases never looks up.
   */
  public static GeoFiles geoFiles(Path file) {
    return new GeoFiles(List.of(file), List.of(), true);
  }
}
