/**
 * Per-key byte strings in append-only chunks with a slot per key, the storage under the index
 * feed's servers and the positioning's published coordinates: {@link
 * dev.reed.coordinator.index.store.KeyedByteStore} over 1 MB chunks, never written twice, so a
 * reader that copied the chunk array reads its bytes without a lock while the writer appends.
 *
 * <p>Why columns and chunks rather than an object per server. Every replica holds every server
 * and re-reads each one's coordinate every round, so the layout decides both memory and the query
 * tail (docs/research/scale.md, coordinator/README.md "Scale harness"):
 *
 * <ul>
 *   <li><b>Memory.</b> At 250,000 servers x 30 landmarks a replica's heap went from 5.6-6.2 KB to
 *       1.9-2.4 KB a server with the changes that made a server's ranked form one run of bytes
 *       instead of a parsed message with its {@code LandmarkRtt} objects; a serving replica holds
 *       the whole index in 204-225 MB, and a state is ~16 MB of primitive arrays.
 *   <li><b>Garbage collection.</b> As objects, each re-read server was new objects referenced from
 *       tables in the old generation, and young collections spent their time following those
 *       references (card scanning) rather than copying. Here a re-read server costs primitive
 *       stores and an append. Together with touching the heap at start, this took round 2's query
 *       p99 at 250,000 x 30 from 13.0-18.9 ms to 5.4-9.0 ms; the columns alone left it at
 *       10.4-14.6 ms.
 *   <li><b>Cache-friendly scans.</b> A state's templates sit in arrays in the ranking index's k-d
 *       order, read by position: the per-entry lookup by key, a chain of dependent cache misses,
 *       had been about a third of a page's CPU. Primitive arrays are also copied by a collection
 *       without looking inside them, where a map of 250,000 servers is a million references.
 * </ul>
 *
 * <p>Not thread-safe: one writer per store.
 */
package dev.reed.coordinator.index.store;
