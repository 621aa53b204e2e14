/**
 * The coordinator's master-server front ends: UDP servers that speak the masters' own protocols
 * (codecs in {@code dev.reed.probe.master}), so ordinary server browsers and {@code quakestat}
 * list what the landmarks probe. {@link dev.reed.coordinator.frontend.ValveMasterFrontEnd} pages
 * the A2S servers with the Valve cursor; {@link dev.reed.coordinator.frontend.Quake3MasterFrontEnd}
 * answers {@code getservers} and verifies heartbeats with a {@code getinfo} challenge before the
 * catalog publishes the server. Both list from a {@link dev.reed.coordinator.frontend.ServerDirectory}.
 */
package dev.reed.coordinator.frontend;
