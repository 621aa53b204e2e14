/**
 * Master-server list protocols (docs/protocols.md), both sides: the Valve Master Server Query Protocol
 * ({@link dev.reed.probe.master.ValveMasterCodec}, {@link dev.reed.probe.master.ValveFilter}) and
 * the Quake III {@code getservers} list ({@link dev.reed.probe.master.Quake3MasterCodec}), plus
 * the polite UDP fetch of a whole list ({@link dev.reed.probe.master.MasterListClient}) that the
 * SDK's traditional list and the coordinator's crawler share. The coordinator's master front ends
 * answer with the same codecs.
 */
package dev.reed.probe.master;
