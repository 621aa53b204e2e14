/**
 * The emulated Internet: latency models (synthetic geography or a measured RTT matrix), hosts and
 * their loopback addresses, noise, and statistics of a world.
 */
package dev.reed.testbed.world;
