/**
 * Hosts that lie, free of I/O. Servers: whether a server's landmark RTTs are physically
 * possible for one host at one place. Anycast edges and query proxies answer game queries close to
 * every landmark (or to one), so the sum of two landmarks' RTTs to the "server" falls far below the
 * RTT between the two landmarks, which no single place can do; a server's RTTs below the
 * light-in-fibre floor to where its address is contradict its location.
 * {@link dev.reed.coordinates.integrity.ServerConsistency} checks one server against a
 * {@link dev.reed.coordinates.integrity.MeshBounds} prepared once per round, with every tolerance
 * in {@link dev.reed.coordinates.integrity.IntegrityConfig}; the answer is an
 * {@link dev.reed.coordinates.integrity.IntegrityVerdict} with its evidence.
 *
 * <p>Related work: the REED paper leaves these attacks to future work (Armitage &amp; Heyde 2011,
 * section 7.2.3); Veracity (Sherr et al., USENIX ATC 2009) and NCShield (Zhang et al. 2011) bound
 * lying nodes in decentralised coordinates; the triangle inequality bounds of IDMaps (Francis et
 * al. 2001); Internet paths do violate the triangle inequality (Lumezanu et al., IMC 2009), which
 * is why the tolerances are relative and tuned on measured matrices (docs/research/host-integrity.md).
 *
 * <p>Landmarks: one whose measurements disagree with the other landmarks'
 * ({@link dev.reed.coordinates.integrity.LandmarkResiduals}) is quarantined with hysteresis
 * ({@link dev.reed.coordinates.integrity.LandmarkQuarantine}) under one
 * {@link dev.reed.coordinates.integrity.QuarantineConfig}. Shared by the coordinator and the eval.
 */
package dev.reed.coordinates.integrity;
