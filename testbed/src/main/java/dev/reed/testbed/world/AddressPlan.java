package dev.reed.testbed.world;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Gives every emulated host its own loopback address, so an emulated server can tell from a
 * datagram's source address which host probed it (all of 127.0.0.0/8 is local on Linux without
 * configuration). Host i gets {@code 127.(base + i / 65024).((i / 254) % 256).(i % 254 + 1)}:
 * the last octet avoids 0 and 255. The mapping is arithmetic both ways, so lookups need no table.
 *
 * @param secondOctet the first second octet used (1..255); 127.0.x.x is left to ad-hoc test use
 */
public record AddressPlan(int secondOctet) {
  /** Hosts from 127.100.0.1 upwards. */
  public static final AddressPlan DEFAULT = new AddressPlan(100);
  private static final int PER_SECOND_OCTET = 256 * 254;

  public AddressPlan {
    if (secondOctet < 1 || secondOctet > 255) {
      throw new IllegalArgumentException("secondOctet must be in 1..255: " + secondOctet);
    }
  }

  /** How many hosts fit. */
  public int capacity() {
    return (256 - secondOctet) * PER_SECOND_OCTET;
  }

  public Inet4Address address(int index) {
    if (index < 0 || index >= capacity()) {
      throw new IndexOutOfBoundsException("host index " + index + " outside 0.." + (capacity() - 1));
    }
    byte[] b = {127, (byte) (secondOctet + index / PER_SECOND_OCTET), (byte) ((index / 254) % 256),
        (byte) (index % 254 + 1)};
    try {
      return (Inet4Address) InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The host index of an address, or -1 when the address is not in this plan. */
  public int indexOf(InetAddress address) {
    if (!(address instanceof Inet4Address)) {
      return -1;
    }
    byte[] b = address.getAddress();
    int o2 = b[1] & 0xff;
    int o3 = b[2] & 0xff;
    int o4 = b[3] & 0xff;
    if ((b[0] & 0xff) != 127 || o2 < secondOctet || o4 == 0 || o4 == 255) {
      return -1;
    }
    return (o2 - secondOctet) * PER_SECOND_OCTET + o3 * 254 + (o4 - 1);
  }
}
